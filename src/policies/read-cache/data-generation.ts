import type { Request } from 'express';

const OBSERVED = Symbol('data generation');

type WithGeneration = Request & { [OBSERVED]?: number | null };

/**
 * A number that changes after every committed creation, so a read cached under one value is
 * current for as long as the value stays the same. The replicas share it in Redis, read in the
 * quota decision's own round trip; without Redis the one instance counts its own creations.
 * `undefined` means "not known now": the read goes to the database.
 */
export abstract class DataGeneration {
  /** The Redis key the limiter reads with the quota decision, when the generation lives in Redis. */
  abstract readonly redisKey: string | undefined;

  /** The generation to read `request` under; `undefined` bypasses the cache. */
  abstract of(request: Request): number | undefined;

  /** Moves the generation on after a committed write. Never fails: a failure is logged and bounded by the entries' life. */
  abstract bump(): Promise<void>;

  /** What the quota decision read for `request`: a generation, or `null` when it could not read one (Redis out). */
  static observe(request: Request, generation: number | null): void {
    (request as WithGeneration)[OBSERVED] = generation;
  }

  protected static observed(request: Request): number | undefined {
    return (request as WithGeneration)[OBSERVED] ?? undefined;
  }
}
