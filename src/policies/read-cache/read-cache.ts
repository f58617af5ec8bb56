import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { LRUCache } from 'lru-cache';
import { Clock } from '../../common/index.js';
import { DataGeneration } from './data-generation.js';
import type { ReadCacheConfig } from './read-cache.config.js';

/** The handler's result as JSON text (`undefined` when it gave none) and the headers it set. */
export interface CachedAnswer {
  json: string | undefined;
  headers: Array<[string, string]>;
}

/** A flood of distinct URLs evicts the least recent. */
export const READ_CACHE_ENTRIES = 2_000;

type Load = () => Promise<CachedAnswer>;

/**
 * Successful reads of one data generation and this replica's writes since: another generation or a
 * write moves the epoch on, so the older entries are never read again and age out (`clear()` would
 * fill all `max` slots on every write). Each lives at most `READ_CACHE_TTL_MS`, which bounds
 * staleness when a generation could not be moved on.
 */
@Injectable()
export class ReadCache {
  readonly enabled: boolean;
  private readonly answers: LRUCache<string, CachedAnswer, Load>;
  private generation?: number;
  /** A load begun before the epoch moved on is neither kept nor joined after it. */
  private epoch = 0;

  constructor(
    private readonly generations: DataGeneration,
    clock: Clock,
    config: ConfigService,
  ) {
    const { ttlMs } = config.getOrThrow<ReadCacheConfig>('readCache');
    this.enabled = ttlMs > 0;
    this.answers = new LRUCache<string, CachedAnswer, Load>({
      max: READ_CACHE_ENTRIES,
      ttl: Math.max(1, ttlMs),
      ttlResolution: 0,
      perf: { now: () => clock.now().getTime() },
      // A load finishes for the requests that joined it even when it was evicted meanwhile.
      ignoreFetchAbort: true,
      fetchMethod: (_key, _stale, { context }) => context(),
    });
  }

  /** Requests that miss together share one load and its outcome, a failure too: one query timeout, not two. */
  read(generation: number, key: string, load: Load): CachedAnswer | Promise<CachedAnswer> {
    if (generation !== this.generation) {
      this.generation = generation;
      this.epoch += 1;
    }
    const entry = `${this.epoch} ${key}`;
    return this.answers.get(entry) ?? (this.answers.fetch(entry, { context: load }) as Promise<CachedAnswer>);
  }

  /** After a write: this replica's cached reads are left behind, and the generation moves on for every replica. */
  async changed(): Promise<void> {
    this.epoch += 1;
    await this.generations.bump();
  }
}
