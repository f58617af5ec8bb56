import type { QuotaReading } from '../../common/index.js';
import type { PlanLimits } from '../../modules/plans/index.js';
import { DAY_MS, MINUTE_MS, type LimiterFacts } from './limiter.store.js';

export type RateLimitDecision = ReturnType<typeof decide>;

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

function window(name: 'minute' | 'day', limit: number, used: number, lengthMs: number, nowMs: number) {
  return { name, limit, remaining: Math.max(0, limit - used), resetMs: (Math.floor(nowMs / lengthMs) + 1) * lengthMs };
}

function windowsOf({ usedMinute, usedDay, nowMs }: LimiterFacts, { perMinute, perDay }: PlanLimits) {
  return { minute: window('minute', perMinute, usedMinute, MINUTE_MS, nowMs), day: window('day', perDay, usedDay, DAY_MS, nowMs) };
}

/** Both windows for the caller of an `@UncountedRead()` route: what its quota headers say. */
export function readingOf(plan: string, facts: LimiterFacts, limits: PlanLimits): QuotaReading {
  const { minute, day } = windowsOf(facts, limits);
  const window = ({ limit, remaining, resetMs }: typeof minute) => ({ limit, remaining, reset: Math.ceil(resetMs / 1000) });
  return { plan, minute: window(minute), day: window(day) };
}

/** Shows the window nearest exhaustion (the minute on a tie; on a refusal, the refusing one, the later if both: a truthful Retry-After). */
export function decide(facts: LimiterFacts, limits: PlanLimits) {
  const { outcome, nowMs } = facts;
  const { minute, day } = windowsOf(facts, limits);
  let shown = day.remaining < minute.remaining ? day : minute;
  if (outcome === 'suspended') shown = { ...minute, remaining: 0, resetMs: facts.suspendedUntilMs };
  if (outcome === 'refused') shown = { ...(day.remaining === 0 ? day : minute), remaining: 0 };
  const headers = {
    'X-RateLimit-Limit': String(shown.limit),
    'X-RateLimit-Remaining': String(shown.remaining),
    'X-RateLimit-Reset': String(Math.ceil(shown.resetMs / 1000)),
    'RateLimit-Policy': `"minute";q=${limits.perMinute};w=60, "day";q=${limits.perDay};w=86400`,
    RateLimit: `"${shown.name}";r=${shown.remaining};t=${seconds(shown.resetMs - nowMs)}`,
  };
  const refusing = outcome === 'refused' || outcome === 'suspended';
  return { outcome, headers, ...(refusing && { retryAfterSeconds: seconds(shown.resetMs - nowMs) }) };
}
