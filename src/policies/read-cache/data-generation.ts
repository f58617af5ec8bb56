import type { Request } from 'express';

/**
 * A number that changes after every committed creation, so a read cached under one value is
 * current for as long as the value holds. `undefined` means "not known now": the read goes to
 * the database.
 */
export abstract class DataGeneration {
  /** The key the quota decision reads in its own Redis round trip, on a single Redis. */
  get redisKey(): string | undefined {
    return undefined;
  }

  /** What the quota decision read at `redisKey` for `request` (undefined: it could not read it). */
  observe(_request: Request, _generation: number | undefined): void {}

  /** The generation to read `request` under. */
  abstract of(request: Request): number | undefined | Promise<number | undefined>;

  /** Moves the generation on after a committed write; never fails (a failure is logged, bounded by the entries' life). */
  abstract bump(): Promise<void>;
}
