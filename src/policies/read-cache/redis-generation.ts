import { setImmediate as afterThisTurn } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import type { Request } from 'express';
import { RedisCircuit, type RedisClient } from '../../platform/redis/index.js';
import { DataGeneration } from './data-generation.js';

const logger = new Logger('ReadCache');

/**
 * One Redis key, read by the quota decision in the request's only round trip (`observe`). A turn's
 * creations share one INCR, sent once the turn's I/O callbacks have run: after every commit it stands for.
 */
export class RedisGeneration extends DataGeneration {
  private readonly observed = new WeakMap<Request, number | undefined>();
  private next?: Promise<void>;

  constructor(
    protected readonly redis: RedisClient,
    protected readonly key: string,
  ) {
    super();
  }

  override get redisKey(): string | undefined {
    return this.key;
  }

  override observe(request: Request, generation: number | undefined): void {
    this.observed.set(request, generation);
  }

  of(request: Request): number | undefined | Promise<number | undefined> {
    return this.observed.get(request);
  }

  bump(): Promise<void> {
    this.next ??= afterThisTurn().then(() => {
      this.next = undefined;
      return this.increment();
    });
    return this.next;
  }

  private async increment(): Promise<void> {
    try {
      await this.redis.incr(this.key);
    } catch (error) {
      logger.warn(
        `Could not move the data generation on (${error instanceof Error ? error.message : String(error)}); other replicas may serve cached reads without this write until their entries expire`,
      );
    }
  }
}

/**
 * On a Cluster the key is in another slot than the caller's counters, so each cached read GETs it,
 * through a circuit of its own: while its node fails, reads go to the database.
 */
export class ClusterGeneration extends RedisGeneration {
  private readonly circuit = new RedisCircuit(this.redis, logger, {
    down: (reason) => `The data generation cannot be read (${reason}); reads go to the database until it can`,
    up: 'The data generation can be read again; reads use the read cache',
  });

  override get redisKey(): undefined {
    return undefined;
  }

  override of(): Promise<number | undefined> {
    return this.circuit.run(
      this.key,
      async () => {
        const generation = Number((await this.redis.get(this.key)) ?? 0);
        return Number.isFinite(generation) ? generation : undefined;
      },
      () => Promise.resolve(undefined),
    );
  }

  onApplicationShutdown(): void {
    this.circuit.close();
  }
}
