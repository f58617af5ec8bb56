import type { Request } from 'express';
import { DataGeneration } from './data-generation.js';

/**
 * The generation of a service without Redis, which runs as one instance (docs/operations.md,
 * "Scaling out"): the count of its own committed creations, exact for that one instance.
 */
export class LocalGeneration extends DataGeneration {
  readonly redisKey = undefined;
  private generation = 0;

  of(_request: Request): number {
    return this.generation;
  }

  bump(): Promise<void> {
    this.generation += 1;
    return Promise.resolve();
  }
}
