import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { LRUCache } from 'lru-cache';
import { Clock } from '../../common/index.js';
import { defineConfig, isInteger } from '../../platform/config/index.js';
import { DataGeneration } from './data-generation.js';

export type ReadCacheConfig = ReturnType<typeof readCacheConfig>;

export const readCacheConfig = defineConfig('readCache', { READ_CACHE_TTL_MS: isInteger(0, 60_000) }, () => ({
  /** 0 turns the cache off; else it bounds staleness when a generation could not be moved on. */
  ttlMs: Number(process.env.READ_CACHE_TTL_MS || 1_000),
}));

/** The handler's result as JSON text (`undefined` when it gave none) and the headers it set. */
export type CachedAnswer = { json: string | undefined; headers: Array<[string, string]> };

/** A flood of distinct URLs evicts the least recent. */
export const READ_CACHE_ENTRIES = 2_000;

type Load = () => Promise<CachedAnswer>;

/** Successful reads per tag and epoch: a write or another generation moves the epoch on, and older entries age out unread. */
@Injectable()
export class ReadCache {
  private readonly ttlMs = this.config.getOrThrow<ReadCacheConfig>('readCache').ttlMs;
  readonly enabled = this.ttlMs > 0;
  private readonly answers = new LRUCache<string, CachedAnswer, Load>({
    max: READ_CACHE_ENTRIES,
    ttl: Math.max(1, this.ttlMs),
    ttlResolution: 0,
    perf: { now: () => this.clock.now().getTime() },
    // A load finishes for the requests that joined it even when it was evicted meanwhile.
    ignoreFetchAbort: true,
    fetchMethod: (_key, _stale, { context }) => context(),
  });
  /** Per tag, the generation last read and an epoch: a load begun before the epoch moved on is neither kept nor joined after it. */
  private readonly tags = new Map<string, { generation?: number; epoch: number }>();

  constructor(
    private readonly generations: DataGeneration,
    private readonly clock: Clock,
    private readonly config: ConfigService,
  ) {}

  /** Requests that miss together share one load and its outcome, a failure too: one query timeout, not two. */
  read(tag: string, generation: number, key: string, load: Load): CachedAnswer | Promise<CachedAnswer> {
    const state = this.stateOf(tag);
    if (generation !== state.generation) Object.assign(state, { generation, epoch: state.epoch + 1 });
    const entry = `${tag} ${state.epoch} ${key}`;
    return this.answers.get(entry) ?? (this.answers.fetch(entry, { context: load }) as Promise<CachedAnswer>);
  }

  /** After a write of `tag`: this replica's cached reads of it are left behind, and its generation moves on for every replica. */
  async changed(tag: string): Promise<void> {
    this.stateOf(tag).epoch += 1;
    await this.generations.bump(tag);
  }

  private stateOf(tag: string): { generation?: number; epoch: number } {
    let state = this.tags.get(tag);
    if (!state) this.tags.set(tag, (state = { epoch: 0 }));
    return state;
  }
}
