import type { Request } from 'express';

/** Changes after every committed creation, so a read cached under one value is current while it holds; `undefined`: not known now. */
export abstract class DataGeneration {
  /** The key the quota decision reads in its Redis round trip, on a single Redis. */
  get redisKey(): string | undefined {
    return undefined;
  }

  /** What the quota decision read at `redisKey` for `request` (undefined: it could not read it). */
  observe(_request: Request, _generation: number | undefined): void {}

  abstract of(request: Request): number | undefined | Promise<number | undefined>;

  /** After a committed write; never fails (a failure is logged, bounded by the entries' life). */
  abstract bump(): Promise<void>;
}

/** Without Redis the service runs as one instance (docs/operations.md): the count of its own creations is exact. */
export class LocalGeneration extends DataGeneration {
  private generation = 0;

  of(): number {
    return this.generation;
  }

  bump(): Promise<void> {
    this.generation += 1;
    return Promise.resolve();
  }
}
