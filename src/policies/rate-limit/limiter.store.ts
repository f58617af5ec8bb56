import type { PlanLimits } from '../../modules/plans/index.js';

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

export type BanPolicy = { threshold: number; durationMs: number };

export interface LimiterRequest {
  /** The hash that holds the subject's counts, hash-tagged (`{...}`) for Redis Cluster. */
  subjectKey: string;
  /** The key's id when the caller has a valid key; anonymous callers are never suspended. */
  keyId?: number;
  limits: PlanLimits;
  ban: BanPolicy;
  /** A hash read whole in the same round trip by a Redis store: the read cache's generations. */
  alsoReadKey?: string;
}

/** `read`: a peek found the subject's counts and changed nothing. */
export type LimiterOutcome = 'admitted' | 'refused' | 'suspended' | 'read';

/** What the decision found and did, by the clock of the store that ran it. */
export interface LimiterFacts {
  outcome: LimiterOutcome;
  /** The store that decided: Redis, or this process (embedded, or while Redis fails). */
  store: 'redis' | 'in-process';
  usedMinute: number;
  usedDay: number;
  nowMs: number;
  suspendedUntilMs: number;
  /** The numbers in the hash at `alsoReadKey` (none when it is unset), if the store read it. */
  alsoRead?: Record<string, number>;
}

export abstract class LimiterStore {
  abstract consume(request: LimiterRequest): Promise<LimiterFacts>;
  /** The counts `consume` would start from, counting nothing: `read`, or `suspended` for a suspended key. */
  abstract peek(request: LimiterRequest): Promise<LimiterFacts>;
}
