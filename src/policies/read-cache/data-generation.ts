import { setImmediate as afterThisTurn } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import type { ClsService } from 'nestjs-cls';
import type { RequestContext } from '../../common/index.js';
import { RedisCircuit, type RedisClient } from '../../platform/redis/index.js';

/** A number per tag that moves on after every committed write marked with it: a read cached under one value is current while it holds. */
export abstract class DataGeneration {
  /** The hash the quota decision reads whole in its Redis round trip, on a single Redis, into the request context's `dataGenerations`. */
  readonly redisKey?: string;

  /** The generation of `tag` the current request reads under; `undefined`: not known now. */
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

const logger = new Logger('ReadCache');

/** A Redis hash read whole in the quota decision's round trip; a turn's writes of a tag share one HINCRBY, sent after its commits. */
export class RedisGeneration extends DataGeneration {
  override readonly redisKey?: string = this.key;
  private readonly next = new Map<string, Promise<void>>();

  constructor(
    protected readonly redis: RedisClient,
    protected readonly key: string,
    private readonly cls: ClsService<RequestContext>,
  ) {
    super();
  }

  of(tag: string): number | undefined | Promise<number | undefined> {
    const generations = this.cls.get('dataGenerations');
    return generations && (generations[tag] ?? 0);
  }

  bump(tag: string): Promise<void> {
    let next = this.next.get(tag);
    if (!next) this.next.set(tag, (next = afterThisTurn().then(() => this.increment(tag))));
    return next;
  }

  private async increment(tag: string): Promise<void> {
    this.next.delete(tag);
    try {
      await this.redis.hincrby(this.key, tag, 1);
    } catch (error) {
      logger.warn(
        `Could not move the data generation of ${tag} on (${error instanceof Error ? error.message : String(error)}); other replicas may serve cached reads without this write until their entries expire`,
      );
    }
  }
}

/** On a Cluster the hash is in another slot than the counters: each cached read HGETs its tag, going to the database while that fails. */
export class ClusterGeneration extends RedisGeneration {
  override readonly redisKey = undefined;
  private readonly circuit = new RedisCircuit(this.redis, logger, {
    down: (reason) => `The data generation cannot be read (${reason}); reads go to the database until it can`,
    up: 'The data generation can be read again; reads use the read cache',
  });

  override of(tag: string): Promise<number | undefined> {
    return this.circuit.run(
      this.key,
      async () => {
        const generation = Number((await this.redis.hget(this.key, tag)) ?? 0);
        return Number.isFinite(generation) ? generation : undefined;
      },
      () => Promise.resolve(undefined),
    );
  }

  onApplicationShutdown(): void {
    this.circuit.close();
  }
}
