import { FakeClock } from '../support/fake-clock.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Every header of every kind of answer, name and value, as the contract and the operators know
 * them: a faster path (the read cache, a leaner pipeline) must not add, drop or change one. The
 * only header ever dropped is `ETag`, which nothing promised (docs/api.md, "Caching").
 */
const SECURITY = {
  'content-security-policy':
    "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline';upgrade-insecure-requests",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};
const EVERY_ANSWER = {
  ...SECURITY,
  'x-request-id': expect.stringMatching(/^[0-9a-f-]{36}$/),
  'content-type': 'application/json; charset=utf-8',
  date: expect.stringMatching(/ GMT$/),
  connection: 'close',
};
/** The quota headers of a plan's caller with `remaining` left in the minute (the fake clock: 50 s left). */
const quota = (perMinute: number, perDay: number) => (remaining: number) => ({
  'x-ratelimit-limit': String(perMinute),
  'x-ratelimit-remaining': String(remaining),
  'x-ratelimit-reset': '1803902460',
  'ratelimit-policy': `"minute";q=${perMinute};w=60, "day";q=${perDay};w=86400`,
  ratelimit: `"minute";r=${remaining};t=50`,
});
const ENTERPRISE_QUOTA = quota(1000000, 100000000);
const FREE_QUOTA = quota(60, 1000);
const GET_PET_DEPRECATION = {
  deprecation: '@1767225600',
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  link: '</v1/pets>; rel="successor-version"',
};

describe('response headers (e2e)', () => {
  let app: TestApp;
  let auth: Record<string, string>;

  beforeAll(async () => {
    app = await createTestApp({ clock: new FakeClock(new Date('2027-03-01T12:00:10Z')) });
    auth = { Authorization: `Bearer ${await app.newKey()}`, Host: 'pets.example' };
  });
  afterAll(() => app.close());

  it('answers each kind of request with exactly the headers it always had', async () => {
    const created = await app.http().post('/v1/pets').set(auth).send({ name: 'Rex', categoryId: 1 });
    expect(created.headers).toEqual({
      ...EVERY_ANSWER,
      ...ENTERPRISE_QUOTA(999999),
      location: 'http://pets.example/v1/pets/1',
      'content-length': '57',
    });
    await app.http().post('/v1/pets').set(auth).send({ name: 'Bella', categoryId: 1 }).expect(201);
    for (const remaining of [999997, 999996]) {
      // The second answer of each read comes from the read cache: the same headers.
      expect((await app.http().get('/v1/pets?limit=1').set(auth)).headers).toEqual({
        ...EVERY_ANSWER,
        ...ENTERPRISE_QUOTA(remaining),
        link: '<http://pets.example/v1/pets?limit=1&cursor=eyJhZnRlciI6MSwic3RhdHVzIjpudWxsfQ.68pdAt8ir1>; rel="next"',
        'content-length': '59',
      });
    }
    for (const remaining of [999995, 999994]) {
      expect((await app.http().get('/v1/pets/1').set(auth)).headers).toEqual({
        ...EVERY_ANSWER,
        ...ENTERPRISE_QUOTA(remaining),
        ...GET_PET_DEPRECATION,
        'content-length': '57',
      });
    }
    expect((await app.http().get('/v1/pets/99').set(auth)).headers).toEqual({
      ...EVERY_ANSWER,
      ...ENTERPRISE_QUOTA(999993),
      ...GET_PET_DEPRECATION,
      'content-length': '67',
    });
    expect((await app.http().get('/v1/pets?limit=0').set(auth)).headers).toEqual({
      ...EVERY_ANSWER,
      ...ENTERPRISE_QUOTA(999992),
      'content-length': '157',
    });
  });

  it('answers an anonymous caller and one over its quota with their quota headers', async () => {
    expect((await app.http().get('/v1/pets').set({ Host: 'pets.example' })).headers).toEqual({
      ...EVERY_ANSWER,
      ...FREE_QUOTA(59),
      'www-authenticate': 'Bearer realm="pets"',
      'content-length': '109',
    });
    const free = { Authorization: `Bearer ${await app.newKey('free')}`, Host: 'pets.example' };
    for (let i = 0; i < 60; i++) await app.http().get('/v1/pets').set(free).expect(200);
    expect((await app.http().get('/v1/pets').set(free)).headers).toEqual({
      ...EVERY_ANSWER,
      ...FREE_QUOTA(0),
      'retry-after': '50',
      'content-length': '140',
    });
  });

  it('answers a conditional GET in full: no ETag, so no 304', async () => {
    const response = await app
      .http()
      .get('/v1/pets')
      .set({ ...auth, 'If-None-Match': 'W/"3b-pXRnqYnJlbMdX+WGWNW91OcqJLs"' });
    expect(response.status).toBe(200);
    expect(response.headers.etag).toBeUndefined();
    expect(response.body.length).toBeGreaterThan(0);
  });

  it('answers the probes with their own headers', async () => {
    expect((await app.http().get('/health/live')).headers).toEqual({
      ...EVERY_ANSWER,
      'cache-control': 'no-cache, no-store, must-revalidate',
      'content-length': '49',
    });
  });
});
