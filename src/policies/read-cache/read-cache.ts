import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '../../common/index.js';
import { DeferredTransaction } from '../../platform/database/index.js';
import { DataGeneration } from './data-generation.js';
import type { ReadCacheConfig } from './read-cache.config.js';

/** A cached answer: the handler's result as JSON text (`undefined` when it gave none) and the headers it set. */
export interface CachedAnswer {
  json: string | undefined;
  headers: Array<[string, string]>;
}

interface Entry {
  read: CachedAnswer;
  expiresAt: number;
}

/** Pages and animals of one generation, bounded: a flood of distinct URLs evicts the oldest. */
export const READ_CACHE_ENTRIES = 2_000;

/**
 * The replica's cache of successful reads, all of one data generation: seeing another
 * generation empties it, so a read never returns what an earlier creation made stale. Each
 * entry also lives at most `READ_CACHE_TTL_MS`, which bounds staleness when a generation could
 * not be moved on (a creation committed while Redis failed): docs/operations.md, "Guarantees
 * under faults".
 */
@Injectable()
export class ReadCache {
  private readonly ttlMs: number;
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<CachedAnswer>>();
  private generation?: number;
  /** Moves on with each of this replica's writes: a load begun before one is not kept after it. */
  private writes = 0;

  constructor(
    private readonly generations: DataGeneration,
    private readonly clock: Clock,
    config: ConfigService,
  ) {
    this.ttlMs = config.getOrThrow<ReadCacheConfig>('readCache').ttlMs;
  }

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  get(generation: number, key: string): CachedAnswer | undefined {
    if (generation !== this.generation) {
      this.entries.clear();
      this.generation = generation;
      return undefined;
    }
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > this.clock.now().getTime()) return entry.read;
    this.entries.delete(key);
    return undefined;
  }

  /**
   * Reads `key` with `load` and keeps the answer, once for all the requests that miss it at the
   * same time (an entry expiring under load costs one query, not one per waiting request). They
   * share its outcome, a failure too: the same URL meets the same fault, and a request that joined
   * a query timing out must not then wait for a query of its own (twice the timeout).
   */
  load(generation: number, key: string, load: () => Promise<CachedAnswer>): Promise<CachedAnswer> {
    const flightKey = `${generation} ${key}`;
    const flight = this.loading.get(flightKey);
    if (flight) return flight;
    const writes = this.writes;
    const started = load()
      .then((read) => {
        if (writes === this.writes) this.set(generation, key, read);
        return read;
      })
      .finally(() => {
        if (this.loading.get(flightKey) === started) this.loading.delete(flightKey);
      });
    this.loading.set(flightKey, started);
    return started;
  }

  /** Keeps `read` unless the generation moved on while it was being read. */
  private set(generation: number, key: string, read: CachedAnswer): void {
    if (generation !== this.generation || !this.enabled) return;
    if (this.entries.size >= READ_CACHE_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { read, expiresAt: this.clock.now().getTime() + this.ttlMs });
  }

  /**
   * Call after a write: once the write's transaction (if any) has committed, the generation moves
   * on for every replica and this one forgets what it cached, whether or not Redis could record it.
   */
  changed(): Promise<void> {
    return DeferredTransaction.afterCommit(async () => {
      this.writes += 1;
      this.entries.clear();
      this.loading.clear();
      this.generation = undefined;
      await this.generations.bump();
    });
  }
}
