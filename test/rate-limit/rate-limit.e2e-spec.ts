import { jest } from '@jest/globals';
import { generateApiKey } from '../../src/modules/auth/api-key.format.js';
import { ApiKeysRepository } from '../../src/modules/auth/api-keys.repository.js';
import { ApiKeysService } from '../../src/modules/auth/api-keys.service.js';
import { PetsRepository } from '../../src/modules/pets/pets.repository.js';
import { ClientsService } from '../../src/modules/plans/clients.service.js';
import { FakeClock } from '../support/fake-clock.js';
import { createTestApp, OPERATOR, type TestApp } from '../support/test-app.js';

// 2027-03-01T12:00:10Z: 50 s left in the minute, 43,190 s left in the day.
const NOW = new Date('2027-03-01T12:00:10Z');
const MINUTE_END = Date.parse('2027-03-01T12:01:00Z') / 1000;
const DAY_END = Date.parse('2027-03-02T00:00:00Z') / 1000;
const FREE_POLICY = '"minute";q=60;w=60, "day";q=1000;w=86400';

describe('Rate limiting (e2e, in-process store)', () => {
  let t: TestApp;
  let clock: FakeClock;

  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
  const list = (key: string) => t.http().get('/v1/pets').set(bearer(key));
  const repeat = async (times: number, send: () => Promise<{ status: number }>) => {
    const statuses: number[] = [];
    for (let i = 0; i < times; i++) statuses.push((await send()).status);
    return statuses;
  };

  beforeEach(async () => {
    clock = new FakeClock(NOW);
    t = await createTestApp({ clock });
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await t.close();
  });

  it('tells a free client its quota on the first request', async () => {
    const res = await list(await t.newKey('free'));
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '59',
      'x-ratelimit-reset': String(MINUTE_END),
      'ratelimit-policy': FREE_POLICY,
      ratelimit: '"minute";r=59;t=50',
    });
  });

  it('puts the headers on every kind of response', async () => {
    const key = await t.newKey('free');
    jest.spyOn(t.app.get(PetsRepository), 'findById').mockRejectedValueOnce(new Error('boom'));
    const responses = {
      200: await list(key),
      201: await t.http().post('/v1/pets').set(bearer(key)).send({ name: 'Rex', categoryId: 1 }),
      400: await t.http().get('/v1/pets?limit=0').set(bearer(key)),
      401: await t.http().get('/v1/pets'),
      404: await t.http().get('/v1/store/orders').set(bearer(key)),
      405: await t.http().delete('/v1/pets').set(bearer(key)),
      413: await t
        .http()
        .post('/v1/pets')
        .set(bearer(key))
        .send({ name: 'x'.repeat(20_000), categoryId: 1 }),
      415: await t.http().post('/v1/pets').set(bearer(key)).set('Content-Type', 'text/plain').send('Rex'),
      500: await t.http().get('/v1/pets/1').set(bearer(key)),
    };
    for (const [status, res] of Object.entries(responses)) {
      expect({ status: res.status, limit: res.headers['x-ratelimit-limit'] }).toEqual({ status: Number(status), limit: '60' });
      for (const header of ['x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit-policy', 'ratelimit']) {
        expect(res.headers[header]).toBeDefined();
      }
    }
    // The unknown route counted against the key's client; the 401 against the caller's address.
    expect(responses[415].headers['x-ratelimit-remaining']).toBe('53');
    expect(responses[401].headers['x-ratelimit-remaining']).toBe('59');
  });

  it('refuses the 61st request in a minute with 429, Retry-After until the minute ends, and counts refusals nowhere', async () => {
    const key = await t.newKey('free');
    expect(await repeat(60, () => list(key))).toEqual(Array(60).fill(200));
    const res = await list(key);
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ code: 'rate_limit_exceeded', message: expect.any(String), status: 429 });
    expect(res.headers).toMatchObject({
      'retry-after': '50',
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(MINUTE_END),
      ratelimit: '"minute";r=0;t=50',
    });
    clock.set('2027-03-01T12:00:59.400Z');
    expect((await list(key)).headers['retry-after']).toBe('1');
    clock.set('2027-03-01T12:01:00Z');
    const next = await list(key);
    expect(next.status).toBe(200);
    // 61 admitted in all today, not 63: the refused requests counted in neither window.
    expect(next.headers['x-ratelimit-remaining']).toBe('59');
    clock.advance(60_000);
    expect(await repeat(1, () => list(key))).toEqual([200]);
  });

  it('answers 429 whatever the request carried: the quota comes before body and route errors', async () => {
    const key = await t.newKey('enterprise', { perMinute: 2, perDay: 100 });
    await repeat(2, () => list(key));
    const malformed = await t.http().post('/v1/pets').set(bearer(key)).set('Content-Type', 'application/json').send('{"name":');
    const unknown = await t.http().get('/v1/nowhere').set(bearer(key));
    expect([malformed.status, malformed.body.code, unknown.status, unknown.body.code]).toEqual([
      429,
      'rate_limit_exceeded',
      429,
      'rate_limit_exceeded',
    ]);
  });

  it('names the day window when it is the one that refuses, with Reset and Retry-After at midnight UTC', async () => {
    const key = await t.newKey('enterprise', { perMinute: 100, perDay: 3 });
    const admitted = await repeat(2, () => list(key));
    expect(admitted).toEqual([200, 200]);
    const last = await list(key);
    expect(last.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(DAY_END) });
    expect(last.headers['ratelimit-policy']).toBe('"minute";q=100;w=60, "day";q=3;w=86400');
    const refused = await list(key);
    expect(refused.status).toBe(429);
    expect(refused.headers).toMatchObject({
      'retry-after': String(DAY_END - NOW.getTime() / 1000),
      'x-ratelimit-limit': '3',
      'x-ratelimit-reset': String(DAY_END),
      ratelimit: `"day";r=0;t=${DAY_END - NOW.getTime() / 1000}`,
    });
  });

  it('says the resetting-last window refused when both are full', async () => {
    const key = await t.newKey('enterprise', { perMinute: 2, perDay: 2 });
    await repeat(2, () => list(key));
    const refused = await list(key);
    expect(refused.headers).toMatchObject({ 'x-ratelimit-reset': String(DAY_END), 'retry-after': String(DAY_END - NOW.getTime() / 1000) });
  });

  it('suspends a key that keeps sending while refused, and lifts the suspension after 15 minutes', async () => {
    const key = await t.newKey('free');
    await repeat(60, () => list(key));
    const refusals = await repeat(30, () => list(key));
    expect(refusals).toEqual(Array(30).fill(429));
    const suspended = await list(key);
    expect(suspended.body).toEqual({ code: 'api_key_suspended', message: expect.any(String), status: 429 });
    const banEnd = NOW.getTime() / 1000 + 900;
    expect(suspended.headers).toMatchObject({
      'retry-after': '900',
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(banEnd),
    });
    clock.advance(899_000);
    expect((await list(key)).headers['retry-after']).toBe('1');
    clock.advance(1_000);
    expect((await list(key)).status).toBe(200);
  });

  it('lets all keys of a client share the quota', async () => {
    const client = await t.app.get(ClientsService).create('Shared', 'free', {}, OPERATOR);
    const keys = t.app.get(ApiKeysService);
    const [a, b] = [(await keys.issue(client.id, {}, OPERATOR)).key, (await keys.issue(client.id, {}, OPERATOR)).key];
    await repeat(30, () => list(a));
    await repeat(30, () => list(b));
    expect((await list(a)).status).toBe(429);
    expect((await list(b)).headers['x-ratelimit-remaining']).toBe('0');
  });

  it('limits callers without a valid key per address with the free limits, and never suspends them', async () => {
    const guesses = await repeat(100, () => t.http().get('/v1/pets').set('Authorization', `Bearer pets_guess${Math.random()}`));
    expect(guesses.filter((s) => s === 401)).toHaveLength(60);
    const refused = await t.http().get('/v1/pets');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limit_exceeded');
    // A valid key is counted for its client, not for the address.
    expect((await list(await t.newKey('free'))).status).toBe(200);
  });

  it('decides a paying client behind a throttled address on its own quota, with a key verified lately or just made, while guesses cost no lookup', async () => {
    const key = await t.newKey('pro');
    expect((await list(key)).status).toBe(200);
    clock.advance(4_001);
    // 60 admitted guesses and the 61st, refused, were looked up; from then on the address is refused.
    await repeat(61, () => list(generateApiKey()));
    const lookups = jest.spyOn(t.app.get(ApiKeysRepository), 'findUnrevokedByHash');
    expect(await repeat(100, () => list(generateApiKey()))).toEqual(Array(100).fill(429));
    expect(lookups).not.toHaveBeenCalled();
    for (const valid of [await t.newKey('pro'), key]) {
      const res = await list(valid);
      expect([res.status, res.headers['x-ratelimit-limit']]).toEqual([200, '300']);
    }
    expect(lookups).toHaveBeenCalledTimes(2);
  });

  it('does not count a caller for its address when looking its key up fails with a bug', async () => {
    const key = await t.newKey('pro');
    jest
      .spyOn(t.app.get(ApiKeysRepository), 'findUnrevokedByHash')
      .mockRejectedValue(new TypeError("Cannot read properties of undefined (reading 'id')"));
    const res = await list(key);
    expect([res.status, res.body.code, res.headers['x-ratelimit-limit']]).toEqual([500, 'internal_error', undefined]);
  });

  it('answers 503, not the anonymous limits, when the database cannot say whose key it is', async () => {
    const verified = await t.newKey('pro');
    expect((await list(verified)).status).toBe(200);
    const unfamiliar = await t.newKey('pro');
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    jest.spyOn(t.app.get(ApiKeysRepository), 'findUnrevokedByHash').mockRejectedValue(refused);
    clock.advance(4_001);
    const stranger = await list(unfamiliar);
    expect([stranger.status, stranger.body.code, stranger.headers['x-ratelimit-limit']]).toEqual([503, 'service_unavailable', undefined]);
    const known = await list(verified);
    expect([known.status, known.headers['x-ratelimit-limit'], known.headers['x-ratelimit-remaining']]).toEqual([200, '300', '298']);
  });

  it('tells addresses apart by X-Forwarded-For only with TRUST_PROXY', async () => {
    const forwardedFrom = (ip: string) => t.http().get('/v1/pets').set('X-Forwarded-For', ip);
    await repeat(60, () => forwardedFrom('203.0.113.1'));
    expect((await forwardedFrom('203.0.113.2')).status).toBe(429);

    const trusting = await createTestApp({ clock, env: { TRUST_PROXY: 'true' } });
    try {
      for (let i = 0; i < 60; i++) await trusting.http().get('/v1/pets').set('X-Forwarded-For', '203.0.113.1');
      expect((await trusting.http().get('/v1/pets').set('X-Forwarded-For', '203.0.113.1')).status).toBe(429);
      expect((await trusting.http().get('/v1/pets').set('X-Forwarded-For', '203.0.113.2')).status).toBe(401);
    } finally {
      await trusting.close();
    }
  });

  it('counts anonymous IPv6 callers per /64, and an IPv4-mapped address as the IPv4 one', async () => {
    const trusting = await createTestApp({ clock, env: { TRUST_PROXY: '1' } });
    try {
      const from = (ip: string) => trusting.http().get('/v1/pets').set('X-Forwarded-For', ip);
      // 60 requests from 60 addresses of one /64 spend one quota.
      for (let i = 1; i <= 60; i++) expect((await from(`2001:db8:1:2::${i.toString(16)}`)).status).toBe(401);
      expect((await from('2001:db8:1:2:ffff:ffff:ffff:ffff')).status).toBe(429);
      expect((await from('2001:db8:1:3::1')).status).toBe(401);
      for (let i = 0; i < 60; i++) await from('198.51.100.7');
      expect((await from('::ffff:198.51.100.7')).status).toBe(429);
    } finally {
      await trusting.close();
    }
  });

  it('reports a Redis it could never reach as degraded in readiness before any request, and keeps serving', async () => {
    const unreachable = await createTestApp({ env: { REDIS_URL: 'redis://127.0.0.1:1', REDIS_COMMAND_TIMEOUT_MS: '200' } });
    try {
      const ready = await unreachable.http().get('/health/ready');
      expect(ready.status).toBe(200);
      expect(ready.body.status).toBe('degraded');
      expect(ready.body.details.rateLimiter).toEqual({ status: 'degraded', store: 'in-process', redis: 'down' });
      const key = await unreachable.newKey('free');
      const res = await unreachable.http().get('/v1/pets').set(bearer(key));
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe('59');
    } finally {
      await unreachable.close();
    }
  });

  it('reports the in-process limiter in readiness', async () => {
    const res = await t.http().get('/health/ready');
    expect(res.status).toBe(200);
    expect(res.body.details.rateLimiter).toEqual({ status: 'up', store: 'in-process', redis: 'not configured' });
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });
});
