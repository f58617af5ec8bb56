import type { PlanLimits } from '../../modules/plans/index.js';
import type { LimiterFacts } from './limiter.store.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

interface Window {
  name: 'minute' | 'day';
  limit: number;
  remaining: number;
  resetMs: number;
}

export interface RateLimitDecision {
  outcome: LimiterFacts['outcome'];
  /** The headers every response carries (docs/contract/decisions.md, "Rate limiting"). */
  headers: Record<string, string>;
  /** Whole seconds until a refused caller may retry (at least 1). */
  retryAfterSeconds?: number;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Turns what the store did into what the client is told: the window closest to exhaustion (the
 * minute on a tie; on a refusal the refusing one, and when both are full the one that resets
 * last, so Retry-After is truthful), in the X-RateLimit-* headers and the IETF draft fields.
 */
export function decide(facts: LimiterFacts, limits: PlanLimits): RateLimitDecision {
  const { nowMs, usedMinute, usedDay } = facts;
  const minute: Window = {
    name: 'minute',
    limit: limits.perMinute,
    remaining: Math.max(0, limits.perMinute - usedMinute),
    resetMs: (Math.floor(nowMs / MINUTE_MS) + 1) * MINUTE_MS,
  };
  const day: Window = {
    name: 'day',
    limit: limits.perDay,
    remaining: Math.max(0, limits.perDay - usedDay),
    resetMs: (Math.floor(nowMs / DAY_MS) + 1) * DAY_MS,
  };

  let shown: Window;
  if (facts.outcome === 'suspended') {
    shown = { ...minute, remaining: 0, resetMs: facts.suspendedUntilMs };
  } else if (facts.outcome === 'refused') {
    shown = { ...(day.remaining === 0 ? day : minute), remaining: 0 };
  } else {
    shown = day.remaining < minute.remaining ? day : minute;
  }

  const headers = {
    'X-RateLimit-Limit': String(shown.limit),
    'X-RateLimit-Remaining': String(shown.remaining),
    'X-RateLimit-Reset': String(Math.ceil(shown.resetMs / 1000)),
    'RateLimit-Policy': `"minute";q=${limits.perMinute};w=60, "day";q=${limits.perDay};w=86400`,
    RateLimit: `"${shown.name}";r=${shown.remaining};t=${seconds(shown.resetMs - nowMs)}`,
  };
  return facts.outcome === 'admitted'
    ? { outcome: facts.outcome, headers }
    : { outcome: facts.outcome, headers, retryAfterSeconds: seconds(shown.resetMs - nowMs) };
}
