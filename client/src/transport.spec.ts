import { jest } from '@jest/globals';
import { clientOf, errorReply, FakeApi, minuteFull, outcome, settle, waits, type Reply } from '../test/fake-api.js';
import { ConflictError, ConnectionError, InternalServerError, RateLimitError, TimeoutError } from './errors.js';
import { FIRST_BACKOFF_MS, JITTER_SHARE } from './retry-policy.js';

const NOW = new Date('2027-03-01T12:00:18Z');
const MIDNIGHT_S = Date.UTC(2027, 2, 2) / 1000;
const pet = { id: 7, name: 'Rex', categoryId: 3, status: 'available' };
const created: Reply = { status: 201, body: pet, headers: { Location: 'https://api.pets.example/v1/pets/7' } };
const quota = (remaining: number) => ({
  'X-RateLimit-Limit': '60',
  'X-RateLimit-Remaining': String(remaining),
  'X-RateLimit-Reset': '1803902460',
});
const listed = (remaining: number): Reply => ({ status: 200, body: [pet], headers: quota(remaining) });
const dayFull: Reply = errorReply(429, 'rate_limit_exceeded', {
  'Retry-After': '43182',
  RateLimit: '"day";r=0;t=43182',
  'X-RateLimit-Reset': String(MIDNIGHT_S),
});
const suspended: Reply = errorReply(429, 'api_key_suspended', { 'Retry-After': '900', RateLimit: '"minute";r=0;t=900' });
const firstPage = async (iterable: AsyncIterable<unknown>) => {
  for await (const item of iterable) return item;
  return undefined;
};

beforeEach(() => jest.useFakeTimers({ now: NOW }));
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

describe('a full minute window: wait for Retry-After, then retry', () => {
  it.each([
    ['no jitter', 0, 42_000],
    ['the most jitter', 0.999_999, 42_000 + JITTER_SHARE * FIRST_BACKOFF_MS - 1],
  ])('waits Retry-After plus the bounded jitter (%s), then resolves', async (_, random, expectedMs) => {
    jest.spyOn(Math, 'random').mockReturnValue(random);
    const api = new FakeApi().reply(minuteFull(42), created);
    const { value } = await settle(clientOf(api).pets.create({ name: 'Rex', categoryId: 3 }));
    expect(value).toEqual(pet);
    expect(waits(api)).toEqual([expectedMs]); // the fake clock, like setTimeout, counts whole ms
  });

  it('keeps the jitter within a quarter of the backoff, whatever the draw', async () => {
    const api = new FakeApi().reply(...Array.from({ length: 20 }, () => [minuteFull(42), created]).flat());
    const client = clientOf(api);
    for (let call = 0; call < 20; call++) await settle(client.pets.create({ name: `Rex ${call}`, categoryId: 3 }));
    const retried = waits(api).filter((_, index) => index % 2 === 0);
    for (const wait of retried) {
      expect(wait).toBeGreaterThanOrEqual(42_000);
      expect(wait).toBeLessThanOrEqual(42_000 + JITTER_SHARE * FIRST_BACKOFF_MS);
    }
    expect(new Set(retried).size).toBeGreaterThan(1);
  });

  it('backs off exponentially when refused again, never sooner than Retry-After', async () => {
    jest.spyOn(Math, 'random').mockReturnValue(0);
    const api = new FakeApi().reply(minuteFull(1), minuteFull(1), minuteFull(1), minuteFull(1), listed(59));
    await settle(firstPage(clientOf(api, { maxRetries: 4 }).pets.list()));
    expect(waits(api)).toEqual([1_000, 1_000, 2_000, 4_000]);
  });

  it('holds every request of the client until Retry-After, so none is refused in vain', async () => {
    const api = new FakeApi().reply(minuteFull(30), listed(59), listed(58), listed(57));
    const client = clientOf(api);
    const first = firstPage(client.pets.list());
    await jest.advanceTimersByTimeAsync(1_000);
    const others = [client.rateLimit(), firstPage(client.pets.list())];
    await settle(Promise.all([first, ...others]));
    expect(api.sent).toHaveLength(4);
    for (const { at } of api.sent.slice(1)) expect(at).toBeGreaterThanOrEqual(NOW.getTime() + 30_000);
  });

  it('raises the RateLimitError after maxRetries refusals', async () => {
    const api = new FakeApi().reply(minuteFull(2), minuteFull(2), minuteFull(2));
    const { error } = await settle(clientOf(api).rateLimit());
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ window: 'minute', retryAfterSeconds: 2 });
    expect(api.sent).toHaveLength(3);
  });

  it('raises at once when Retry-After is longer than maxRetryDelayMs, and does not hold the next call either', async () => {
    const api = new FakeApi().reply(minuteFull(42), listed(0));
    const client = clientOf(api, { maxRetryDelayMs: 10_000 });
    const { error } = await settle(client.rateLimit());
    expect(error).toMatchObject({ constructor: RateLimitError, window: 'minute' });
    expect(api.sent).toHaveLength(1);
    await settle(client.rateLimit());
    expect(waits(api)).toEqual([0]);
  });

  it('holds the next call after a refusal even with retries off: it would only be refused', async () => {
    const api = new FakeApi().reply(minuteFull(5), listed(59));
    const client = clientOf(api, { maxRetries: 0 });
    expect((await settle(client.rateLimit())).error).toBeInstanceOf(RateLimitError);
    await settle(client.rateLimit());
    expect(waits(api)).toEqual([5_000]);
  });
});

describe('what no wait fixes: one request, a typed error', () => {
  it('the day window: a RateLimitError naming the reset', async () => {
    const api = new FakeApi().reply(dayFull);
    const { error } = await settle(clientOf(api).pets.create({ name: 'Rex', categoryId: 3 }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({
      window: 'day',
      code: 'rate_limit_exceeded',
      retryAfterSeconds: 43_182,
      resetAt: new Date(MIDNIGHT_S * 1000),
    });
    expect((error as Error).message).toContain('the day window resets at 2027-03-02T00:00:00.000Z');
    expect(api.sent).toHaveLength(1);
  });

  it('a suspension', async () => {
    const api = new FakeApi().reply(suspended, listed(1));
    const { error } = await settle(firstPage(clientOf(api).pets.list()));
    expect(error).toMatchObject({ constructor: RateLimitError, window: 'suspended', code: 'api_key_suspended' });
    expect(api.sent).toHaveLength(1);
  });

  it('does not hold the next call after a day or suspension refusal: the server decides again', async () => {
    const api = new FakeApi().reply(dayFull, listed(0));
    const client = clientOf(api);
    await settle(client.rateLimit());
    await settle(client.rateLimit());
    expect(waits(api)).toEqual([0]);
  });

  it.each([
    ['409 key_limit_reached', errorReply(409, 'key_limit_reached'), ConflictError],
    ['501', errorReply(501, 'not_implemented'), InternalServerError],
    [
      'an unknown 429 code',
      errorReply(429, 'concurrency_limit_exceeded', { 'Retry-After': '1', RateLimit: '"minute";r=0;t=1' }),
      RateLimitError,
    ],
  ])('%s', async (_, reply, ErrorClass) => {
    const api = new FakeApi().reply(reply, created);
    const { error } = await settle(clientOf(api).keys.create({ name: 'ci' }));
    expect(error).toBeInstanceOf(ErrorClass);
    expect(api.sent).toHaveLength(1);
  });
});

describe('failures a retry may fix: backoff from 0.5 s, up to maxRetries', () => {
  beforeEach(() => jest.spyOn(Math, 'random').mockReturnValue(0));

  it('5xx, a proxy page included, then success', async () => {
    const proxyPage: Reply = { status: 502, body: '<html>502 Bad Gateway</html>', headers: { 'Content-Type': 'text/html' } };
    const api = new FakeApi().reply(errorReply(500, 'internal_error'), proxyPage, created);
    await expect(settle(clientOf(api).pets.create({ name: 'Rex', categoryId: 3 }))).resolves.toEqual({ value: pet });
    expect(waits(api)).toEqual([500, 1_000]);
  });

  it('waits at least the Retry-After of a 503', async () => {
    const api = new FakeApi().reply(errorReply(503, 'service_unavailable', { 'Retry-After': '2' }), created);
    await settle(clientOf(api).pets.create({ name: 'Rex', categoryId: 3 }));
    expect(waits(api)).toEqual([2_000]);
  });

  it('no answer: ConnectionError, with the cause in its message, after the retries', async () => {
    const refused = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') });
    const api = new FakeApi().reply(refused, refused, new Error('socket hang up'));
    const { error } = await settle(clientOf(api).keys.list());
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toBe('No answer from https://api.pets.example: socket hang up');
    expect((error as Error).cause).toBeInstanceOf(Error);
    expect(waits(api)).toEqual([500, 1_000]);
  });

  it('tells the cause of a network error', async () => {
    const api = new FakeApi().reply(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') }));
    const { error } = await settle(clientOf(api, { maxRetries: 0 }).keys.list());
    expect((error as Error).message).toBe('No answer from https://api.pets.example: fetch failed (connect ECONNREFUSED 127.0.0.1:1)');
  });

  it('says what a fetch threw that is not an Error', async () => {
    const { error } = await settle(
      clientOf(new FakeApi(), { maxRetries: 0, fetch: () => Promise.reject(new Error('offline', { cause: 'wifi' })) }).keys.list(),
    );
    expect((error as Error).message).toBe('No answer from https://api.pets.example: offline');
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- a fetch of the caller's may throw anything
    const throwsString = (): Promise<Response> => Promise.reject('offline');
    const thrown = await settle(clientOf(new FakeApi(), { maxRetries: 0, fetch: throwsString }).keys.list());
    expect((thrown.error as Error).message).toBe('No answer from https://api.pets.example: offline');
  });

  it('an attempt past timeoutMs: TimeoutError, retried', async () => {
    const api = new FakeApi().hang().hang().reply(listed(9));
    await expect(settle(firstPage(clientOf(api, { timeoutMs: 1_000 }).pets.list()))).resolves.toEqual({ value: pet });
    expect(waits(api)).toEqual([1_500, 2_000]);
    const slow = new FakeApi().hang();
    const { error } = await settle(clientOf(slow, { timeoutMs: 1_000, maxRetries: 0 }).rateLimit());
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe('No answer from https://api.pets.example within 1000 ms');
  });

  it('409 idempotency_conflict: the first attempt is still running; retried under the same key', async () => {
    const api = new FakeApi().reply(errorReply(409, 'idempotency_conflict'), created);
    await settle(clientOf(api).pets.create({ name: 'Rex', categoryId: 3 }));
    expect(api.sent).toHaveLength(2);
  });

  it('maxRetries 0: one attempt', async () => {
    const api = new FakeApi().reply(errorReply(500, 'internal_error'));
    const { error } = await settle(clientOf(api, { maxRetries: 0 }).rateLimit());
    expect(error).toBeInstanceOf(InternalServerError);
    expect(api.sent).toHaveLength(1);
  });
});

describe('Idempotency-Key: one per logical POST, the same on each of its retries', () => {
  it('makes a UUID per call and sends it on every attempt', async () => {
    const api = new FakeApi().reply(errorReply(503, 'service_unavailable'), { status: 502, body: 'Bad Gateway' }, created, created);
    const client = clientOf(api);
    await settle(client.pets.create({ name: 'Rex', categoryId: 3 }));
    await settle(client.pets.create({ name: 'Rex', categoryId: 3 }));
    const keys = api.sent.map(({ headers }) => headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys.slice(0, 3)).toEqual([keys[0], keys[0], keys[0]]);
    expect(keys[3]).not.toBe(keys[0]);
  });

  it("uses the caller's key, and sends none on GET or DELETE", async () => {
    const api = new FakeApi().reply(created, { status: 201, body: {} }, { status: 204 }, listed(3));
    const client = clientOf(api);
    await settle(client.pets.create({ name: 'Rex', categoryId: 3 }, { idempotencyKey: 'order-1234' }));
    await settle(client.keys.roll(4, {}, { idempotencyKey: 'roll-4' }));
    await settle(client.keys.revoke(4));
    await settle(client.keys.list());
    expect(api.sent.map(({ headers }) => headers.get('idempotency-key'))).toEqual(['order-1234', 'roll-4', null, null]);
  });
});

describe("the caller's AbortSignal", () => {
  it('ends a wait between attempts with its reason, and nothing more is sent', async () => {
    const api = new FakeApi().reply(minuteFull(30), listed(59));
    const controller = new AbortController();
    const call = outcome(firstPage(clientOf(api).pets.list({}, { signal: controller.signal })));
    await jest.advanceTimersByTimeAsync(1_000);
    controller.abort(new Error('user left'));
    expect((await call).error).toEqual(new Error('user left'));
    await jest.runAllTimersAsync();
    expect(api.sent).toHaveLength(1);
  });

  it('ends an attempt in flight with its reason, not a ConnectionError, and is not retried', async () => {
    const api = new FakeApi().hang();
    const controller = new AbortController();
    const call = outcome(clientOf(api).rateLimit({ signal: controller.signal }));
    await jest.advanceTimersByTimeAsync(10);
    controller.abort(new Error('enough'));
    expect((await call).error).toEqual(new Error('enough'));
    expect(api.sent).toHaveLength(1);
  });

  it('sends nothing when already aborted', async () => {
    const api = new FakeApi();
    const { error } = await settle(clientOf(api).usage({}, { signal: AbortSignal.abort(new Error('no')) }));
    expect(error).toEqual(new Error('no'));
    expect(api.sent).toHaveLength(0);
  });
});

describe('lastRateLimit', () => {
  it("is the last answer's X-RateLimit-* headers, an error's included, kept over an answer without them", async () => {
    const api = new FakeApi().reply(
      listed(17),
      { ...errorReply(404, 'not_found'), headers: quota(16) },
      { status: 502, body: 'Bad Gateway' },
    );
    const client = clientOf(api, { maxRetries: 0 });
    expect(client.lastRateLimit).toBeUndefined();
    await settle(firstPage(client.pets.list()));
    expect(client.lastRateLimit).toEqual({ limit: 60, remaining: 17, reset: 1_803_902_460 });
    await settle(client.pets.get(99));
    expect(client.lastRateLimit?.remaining).toBe(16);
    await settle(client.rateLimit());
    expect(client.lastRateLimit?.remaining).toBe(16);
  });
});
