/**
 * A number per tag that changes after every committed write marked with that tag, so a read cached
 * under one value is current while it holds; `undefined`: not known now.
 */
export abstract class DataGeneration {
  /** The hash the quota decision reads whole in its Redis round trip, on a single Redis, into the request context's `dataGenerations`. */
  get redisKey(): string | undefined {
    return undefined;
  }

  /** The generation of `tag` the current request reads under. */
  abstract of(tag: string): number | undefined | Promise<number | undefined>;

  /** After a committed write; never fails (a failure is logged, bounded by the entries' life). */
  abstract bump(tag: string): Promise<void>;
}

/** Without Redis the service runs as one instance (docs/operations.md): the count of its own writes is exact. */
export class LocalGeneration extends DataGeneration {
  private readonly generations = new Map<string, number>();

  of(tag: string): number {
    return this.generations.get(tag) ?? 0;
  }

  bump(tag: string): Promise<void> {
    this.generations.set(tag, this.of(tag) + 1);
    return Promise.resolve();
  }
}
