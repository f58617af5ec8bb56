import { DataGeneration } from './data-generation.js';

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
