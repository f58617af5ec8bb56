import { ApiError, ConflictError, ConnectionError, InternalServerError, RateLimitError } from './errors.js';

export interface RetryLimits {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** The longest wait before one retry; a Retry-After beyond it is not waited for. */
  maxRetryDelayMs: number;
}

/** The first backoff; each retry doubles it. */
export const FIRST_BACKOFF_MS = 500;
/** The jitter added to a wait: up to this share of the backoff, so callers refused together spread out. */
export const JITTER_SHARE = 0.25;
const NOT_IMPLEMENTED = 501;

/**
 * What a later attempt may change (docs/contract/decisions.md, "The client library"): no answer,
 * a 5xx other than 501, a creation still running under the same Idempotency-Key, and a full minute
 * window. A full day window or a suspension outlasts any wait, and every other 4xx needs another request.
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof ConnectionError) return true;
  if (error instanceof InternalServerError) return error.status !== NOT_IMPLEMENTED;
  if (error instanceof ConflictError) return error.code === 'idempotency_conflict';
  if (error instanceof RateLimitError) return error.code === 'rate_limit_exceeded' && error.window === 'minute';
  return false;
}

/**
 * How long to wait before retry number `retries + 1`, or undefined to give up. Exponential backoff
 * from FIRST_BACKOFF_MS, never less than the answer's Retry-After, plus jitter of up to a quarter of
 * the backoff, and never more than `maxRetryDelayMs`: a Retry-After beyond it is not retried, since
 * retrying earlier would only be refused again (and count towards a suspension).
 */
export function retryDelayMs(error: unknown, retries: number, limits: RetryLimits, random: () => number = Math.random): number | undefined {
  if (retries >= limits.maxRetries || !isRetryable(error)) return undefined;
  const floorMs = error instanceof ApiError ? (error.retryAfterSeconds ?? 0) * 1000 : 0;
  if (floorMs > limits.maxRetryDelayMs) return undefined;
  const backoffMs = Math.min(limits.maxRetryDelayMs, FIRST_BACKOFF_MS * 2 ** retries);
  return Math.min(limits.maxRetryDelayMs, Math.max(floorMs, backoffMs) + random() * JITTER_SHARE * backoffMs);
}
