import { DataGeneration } from './data-generation.js';

/**
 * The generation of a service without Redis, which runs as one instance (docs/operations.md,
 * "Scaling out"): the count of its own committed creations, exact for that one instance.
 */
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
