import type { QuotaWindow } from './contract.js';
import type { RefusedBy } from './errors.js';

const MINUTE_SECONDS = 60;

const integer = (value: string | null): number | undefined => (value !== null && /^\d+$/.test(value) ? Number(value) : undefined);

/** `Retry-After` in whole seconds, as the service sends it (an HTTP date is not used by it, so not read). */
export function retryAfterSeconds(headers: Headers): number | undefined {
  return integer(headers.get('retry-after'));
}

/** The window `X-RateLimit-*` describe (the one with the least room left), when all three are there. */
export function quotaWindow(headers: Headers): QuotaWindow | undefined {
  const [limit, remaining, reset] = ['limit', 'remaining', 'reset'].map((name) => integer(headers.get(`x-ratelimit-${name}`)));
  return limit === undefined || remaining === undefined || reset === undefined ? undefined : { limit, remaining, reset };
}

/**
 * What refused a 429 and until when. A suspension says so by its code. Otherwise the `RateLimit`
 * field names the refusing window (`"day";r=0;t=…`); without it, only a wait past the minute can
 * be the day's. The end is `X-RateLimit-Reset` (the refusing window's), else now plus the wait.
 */
export function refusal(code: string, headers: Headers, retryAfter: number, nowMs = Date.now()): { window: RefusedBy; resetAt: Date } {
  const named = /^\s*"(minute|day)"/.exec(headers.get('ratelimit') ?? '')?.[1] as 'minute' | 'day' | undefined;
  const window = code === 'api_key_suspended' ? 'suspended' : (named ?? (retryAfter > MINUTE_SECONDS ? 'day' : 'minute'));
  const reset = integer(headers.get('x-ratelimit-reset'));
  return { window, resetAt: new Date(reset === undefined ? nowMs + retryAfter * 1000 : reset * 1000) };
}
