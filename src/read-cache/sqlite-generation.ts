import type { Request } from 'express';
import { DataGeneration } from './data-generation.js';

/**
 * The generation of a single instance on SQLite: this process's writes, counted here, and the
 * commits of any other connection to the same file, which SQLite counts in `PRAGMA data_version`
 * (a synchronous read of a few microseconds). So even two processes sharing one file read their
 * own and each other's writes.
 */
export class SqliteGeneration extends DataGeneration {
  readonly redisKey = undefined;
  private generation = 0;
  private lastDataVersion: number;

  constructor(private readonly dataVersion: () => number) {
    super();
    this.lastDataVersion = dataVersion();
  }

  of(_request: Request): number {
    const dataVersion = this.dataVersion();
    if (dataVersion !== this.lastDataVersion) {
      this.lastDataVersion = dataVersion;
      this.generation += 1;
    }
    return this.generation;
  }

  bump(): Promise<void> {
    this.generation += 1;
    return Promise.resolve();
  }
}

/** No shared generation (PostgreSQL without Redis): every read goes to the database. */
export class NoGeneration extends DataGeneration {
  readonly redisKey = undefined;

  of(_request: Request): undefined {
    return undefined;
  }

  bump(): Promise<void> {
    return Promise.resolve();
  }
}
