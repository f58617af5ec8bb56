import { FakeClock } from '../support/fake-clock.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// 2027-03-01T12:00:10Z: 50 s left in the minute.
const NOW = new Date('2027-03-01T12:00:10Z');
const MINUTE_END = Date.parse('2027-03-01T12:01:00Z') / 1000;
const DAY_END = Date.parse('2027-03-02T00:00:00Z') / 1000;

describe('GET /v1/rate_limit (e2e, in-process store)', () => {
  let t: TestApp;
  let url: string;

  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
  const status = (key: string) => t.http().get('/v1/rate_limit').set(bearer(key));
  const list = (key: string) => t.http().get('/v1/pets').set(bearer(key));
  const repeat = async (times: number, send: () => Promise<unknown>) => {
    for (let i = 0; i < times; i++) await send();
  };

  beforeEach(async () => {
    t = await createTestApp({ clock: new FakeClock(NOW) });
    url = (await t.app.listen(0, '127.0.0.1'), await t.app.getUrl());
  });
  afterEach(() => t.close());

  it('answers the plan and both windows, with the quota headers of the same uncounted reading', async () => {
    const key = await t.newKey('free');
    await repeat(3, () => list(key));
    const res = await status(key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      plan: 'free',
      minute: { limit: 60, remaining: 57, reset: MINUTE_END },
      day: { limit: 1000, remaining: 997, reset: DAY_END },
    });
    expect(res.headers).toMatchObject({
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '57',
      'x-ratelimit-reset': String(MINUTE_END),
      'ratelimit-policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
      ratelimit: '"minute";r=57;t=50',
    });
    expect((await list(key)).headers['x-ratelimit-remaining']).toBe('56');
  });

  it('leaves the windows untouched after 1,500 calls, beyond the free day quota of 1,000', async () => {
    const key = await t.newKey('free');
    expect((await list(key)).headers['x-ratelimit-remaining']).toBe('59');
    const headers = { Authorization: `Bearer ${key}` };
    for (let sent = 0; sent < 1_500; sent += 100) {
      const batch = await Promise.all(Array.from({ length: 100 }, () => fetch(`${url}/v1/rate_limit`, { headers })));
      for (const res of batch) {
        expect([res.status, res.headers.get('x-ratelimit-remaining')]).toEqual([200, '59']);
        await res.arrayBuffer();
      }
    }
    expect((await status(key)).body.day.remaining).toBe(999);
    expect((await list(key)).headers['x-ratelimit-remaining']).toBe('58');
  }, 120_000);

  it('answers 200 with nothing remaining when a window is full, and 429 api_key_suspended to a suspended key', async () => {
    const key = await t.newKey('free');
    await repeat(60, () => list(key));
    const full = await status(key);
    expect(full.status).toBe(200);
    expect(full.body.minute).toEqual({ limit: 60, remaining: 0, reset: MINUTE_END });
    expect(full.headers['retry-after']).toBeUndefined();
    await repeat(30, () => list(key));
    const suspended = await status(key);
    expect(suspended.status).toBe(429);
    expect(suspended.body).toEqual({ code: 'api_key_suspended', message: expect.any(String), status: 429 });
    expect(suspended.headers).toMatchObject({
      'retry-after': '900',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(NOW.getTime() / 1000 + 900),
    });
  });

  it('answers 401 to a missing or bad key, counted per address as any other request', async () => {
    const missing = await t.http().get('/v1/rate_limit');
    expect([missing.status, missing.body.code, missing.headers['x-ratelimit-remaining']]).toEqual([401, 'missing_api_key', '59']);
    const bad = await status('pets_not_a_key');
    expect([bad.status, bad.body.code, bad.headers['x-ratelimit-remaining']]).toEqual([401, 'invalid_api_key', '58']);
    await repeat(58, () => status('pets_not_a_key'));
    const refused = await status('pets_not_a_key');
    expect([refused.status, refused.body.code]).toEqual([429, 'rate_limit_exceeded']);
  });

  it('counts other methods on the path: only the GET is uncounted', async () => {
    const key = await t.newKey('free');
    const post = await t.http().post('/v1/rate_limit').set(bearer(key));
    expect([post.status, post.headers['x-ratelimit-remaining']]).toEqual([405, '59']);
    expect((await status(key)).body.minute.remaining).toBe(59);
  });
});
