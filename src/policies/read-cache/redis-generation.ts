import { setImmediate as afterThisTurn } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import type { Request } from 'express';
import type { RedisClient } from '../../platform/redis/index.js';
import { DataGeneration } from './data-generation.js';

/**
 * The generation every replica shares, in one Redis key. Reads never ask Redis for it: the rate
 * limiter reads it in the same round trip as the quota decision (`DataGeneration.observe`), so a
 * request the limiter decided without Redis (Redis out, or the limiter turned off) reads the
 * database. A creation increments it after its commit and before its 201.
 */
export class RedisGeneration extends DataGeneration {
  private readonly logger = new Logger('ReadCache');
  /** The increment not sent yet, which every creation committed before it is sent shares. */
  private next?: Promise<void>;

  constructor(
    private readonly redis: RedisClient,
    readonly redisKey: string,
  ) {
    super();
  }

  of(request: Request): number | undefined {
    return DataGeneration.observed(request);
  }

  /**
   * Creations that commit in the same turn of the event loop share one `INCR`, sent once that
   * turn's I/O callbacks have run: it still follows every commit it stands for, and a creation
   * committed after it was sent waits for the next one.
   */
  bump(): Promise<void> {
    this.next ??= afterThisTurn().then(() => {
      this.next = undefined;
      return this.increment();
    });
    return this.next;
  }

  private async increment(): Promise<void> {
    try {
      await this.redis.incr(this.redisKey);
    } catch (error) {
      this.logger.warn(
        `Could not move the data generation on (${error instanceof Error ? error.message : String(error)}); other replicas may serve cached reads without this write until their entries expire`,
      );
    }
  }
}
