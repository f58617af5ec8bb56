import { ApiError, BadRequestError, ConflictError, ConnectionError, InternalServerError, RateLimitError, TimeoutError } from './errors.js';
import { FIRST_BACKOFF_MS, isRetryable, JITTER_SHARE, retryDelayMs } from './retry-policy.js';

const limits = { maxRetries: 2, maxRetryDelayMs: 60_000 };
const fields = (status: number, code: string, retryAfterSeconds?: number) => ({ status, code, message: code, retryAfterSeconds });
const refused = (window: 'minute' | 'day' | 'suspended', retryAfterSeconds = 42, code = 'rate_limit_exceeded') =>
  new RateLimitError({ status: 429, code, message: code, retryAfterSeconds }, window, new Date(0));
const noJitter = () => 0;
const mostJitter = () => 0.999_999;

describe('isRetryable: what a later attempt may change', () => {
  it.each([
    ['no answer', new ConnectionError('reset')],
    ['a timeout', new TimeoutError('slow')],
    ['500', new InternalServerError(fields(500, 'internal_error'))],
    ['502 from a proxy', new InternalServerError(fields(502, 'unexpected_response'))],
    ['503', new InternalServerError(fields(503, 'service_unavailable'))],
    ['409 idempotency_conflict', new ConflictError(fields(409, 'idempotency_conflict'))],
    ['429 of the minute window', refused('minute')],
  ])('retries %s', (_, error) => {
    expect(isRetryable(error)).toBe(true);
  });

  it.each([
    ['501', new InternalServerError(fields(501, 'not_implemented'))],
    ['409 key_limit_reached', new ConflictError(fields(409, 'key_limit_reached'))],
    ['429 of the day window', refused('day', 40_000)],
    ['a suspension', refused('suspended', 900, 'api_key_suspended')],
    ['a 429 of another code, even of the minute', refused('minute', 5, 'concurrency_limit_exceeded')],
    ['400', new BadRequestError(fields(400, 'validation_failed'))],
    ['an unknown status', new ApiError(fields(451, 'legal_hold'))],
    ["the caller's abort", new DOMException('aborted', 'AbortError')],
  ])('does not retry %s', (_, error) => {
    expect(isRetryable(error)).toBe(false);
  });
});

describe('retryDelayMs: how long before the next attempt', () => {
  const failure = new InternalServerError(fields(500, 'internal_error'));

  it('backs off exponentially from 0.5 s, with jitter of at most a quarter of the backoff', () => {
    const retries = [0, 1, 2, 3];
    const least = retries.map((retry) => retryDelayMs(failure, retry, { ...limits, maxRetries: 4 }, noJitter));
    const most = retries.map((retry) => retryDelayMs(failure, retry, { ...limits, maxRetries: 4 }, mostJitter));
    expect(FIRST_BACKOFF_MS).toBe(500);
    expect(least).toEqual([500, 1_000, 2_000, 4_000]);
    expect(most.map((wait) => Math.round(wait ?? 0))).toEqual([625, 1_250, 2_500, 5_000]);
    expect(JITTER_SHARE).toBe(0.25);
  });

  it('waits at least Retry-After, plus the jitter of the backoff', () => {
    expect(retryDelayMs(refused('minute', 42), 0, limits, noJitter)).toBe(42_000);
    expect(retryDelayMs(refused('minute', 42), 0, limits, mostJitter)).toBeCloseTo(42_000 + FIRST_BACKOFF_MS * JITTER_SHARE, 0);
    expect(retryDelayMs(new InternalServerError(fields(503, 'service_unavailable', 2)), 0, limits, noJitter)).toBe(2_000);
  });

  it('takes the longer of Retry-After and the backoff when refused again', () => {
    expect(retryDelayMs(refused('minute', 1), 3, { ...limits, maxRetries: 4 }, noJitter)).toBe(4_000);
  });

  it('never waits longer than maxRetryDelayMs, jitter included', () => {
    const capped = { maxRetries: 10, maxRetryDelayMs: 3_000 };
    expect(retryDelayMs(failure, 5, capped, mostJitter)).toBe(3_000);
    expect(retryDelayMs(refused('minute', 3), 0, capped, mostJitter)).toBe(3_000);
  });

  it('gives up when Retry-After is longer than maxRetryDelayMs: an earlier retry would only be refused', () => {
    expect(retryDelayMs(refused('minute', 59), 0, { maxRetries: 2, maxRetryDelayMs: 30_000 })).toBeUndefined();
  });

  it('gives up after maxRetries', () => {
    expect(retryDelayMs(failure, 1, limits)).toBeDefined();
    expect(retryDelayMs(failure, 2, limits)).toBeUndefined();
    expect(retryDelayMs(failure, 0, { ...limits, maxRetries: 0 })).toBeUndefined();
  });

  it('gives up on what no retry fixes', () => {
    expect(retryDelayMs(refused('day', 40_000), 0, limits)).toBeUndefined();
    expect(retryDelayMs(new BadRequestError(fields(400, 'validation_failed')), 0, limits)).toBeUndefined();
  });
});
