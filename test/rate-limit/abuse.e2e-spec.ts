import { jest } from '@jest/globals';
import type { Request } from 'express';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { generateApiKey } from '../../src/modules/auth/api-key.format.js';
import { ApiKeysRepository } from '../../src/modules/auth/api-keys.repository.js';
import { requestContext } from '../../src/common/index.js';
import { RateLimiterService } from '../../src/policies/rate-limit/rate-limiter.service.js';
import { FakeClock } from '../support/fake-clock.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const heapMb = () => process.memoryUsage().heapUsed / 2 ** 20;

/** The limiter's decision on a request of its own context, as the pipeline opens one for each. */
const decide = (limiter: RateLimiterService, request: Request) => requestContext().run(() => limiter.check(request));

/** Floods of distinct keys and addresses: what they cost the database and the heap. */
describe('Limits under abuse (e2e, in-process store)', () => {
  let t: TestApp | undefined;
  const clock = new FakeClock(new Date('2027-03-01T12:00:10Z'));

  afterEach(async () => {
    jest.restoreAllMocks();
    await t?.close();
    t = undefined;
  });

  it('lets 10,000 unknown keys from one throttled address cost the database one lookup per admitted request', async () => {
    t = await createTestApp({ clock });
    const limiter = t.app.get(RateLimiterService);
    const lookups = jest.spyOn(t.app.get(ApiKeysRepository), 'findUnrevokedByHash');
    const outcomes: Record<string, number> = {};
    const started = Date.now();
    for (let i = 0; i < 10_000; i++) {
      const guess = { ip: '127.0.0.1', headers: { authorization: `Bearer ${generateApiKey()}` } } as Request;
      const { outcome } = await decide(limiter, guess);
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    console.log(
      `10,000 unknown keys with valid checksums from one address (the test client's) in ${Date.now() - started} ms: ` +
        `limiter ${JSON.stringify(outcomes)}, database lookups ${lookups.mock.calls.length}`,
    );
    expect(outcomes).toEqual({ admitted: 60, refused: 9_940 });
    // 60 admitted and the first refusal; none while the address is refused, as no guess is a key it issued.
    expect(lookups.mock.calls.length).toBe(61);
    const res = await t.http().get('/v1/pets').set('Authorization', `Bearer ${generateApiKey()}`);
    expect([res.status, res.body.code]).toEqual([429, 'rate_limit_exceeded']);
  }, 120_000);

  it('keeps the heap bounded under a flood of four times its table of addresses, and fails closed for new ones when it is full', async () => {
    // A table of 10,000 (the default holds 50,000): the bound scales with the table, the flood with it.
    t = await createTestApp({ clock, env: { RATE_LIMIT_IN_PROCESS_ADDRESSES: '10000' } });
    const limiter = t.app.get(RateLimiterService);
    const fromAddress = (i: number) => ({ ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, headers: {} }) as Request;
    // An address counted before the flood keeps its count; a paying client is not touched.
    const key = await t.newKey('pro');
    const early = await t.http().get('/v1/pets');
    expect(early.headers['x-ratelimit-remaining']).toBe('59');
    collectGarbage();
    const before = heapMb();
    let peak = before;
    const outcomes: Record<string, number> = {};
    for (let i = 0; i < 40_000; i++) {
      const { outcome } = await decide(limiter, fromAddress(i));
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      if (i % 1_000 === 0) peak = Math.max(peak, heapMb());
    }
    collectGarbage();
    const after = heapMb();
    peak = Math.max(peak, after);
    console.log(
      `40,000 anonymous addresses, table of 10,000: heap before ${before.toFixed(1)} MB, after ${after.toFixed(1)} MB ` +
        `(+${(after - before).toFixed(1)} MB), peak ${peak.toFixed(1)} MB; outcomes ${JSON.stringify(outcomes)}`,
    );
    expect(outcomes).toEqual({ admitted: 9_999, refused: 30_001 });
    expect(after - before).toBeLessThan(8);
    const client = await t.http().get('/v1/pets').set('Authorization', `Bearer ${key}`);
    expect([client.status, client.headers['x-ratelimit-limit']]).toEqual([200, '300']);
  }, 120_000);
});
