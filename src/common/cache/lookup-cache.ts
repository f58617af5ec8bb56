import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock/clock.js';
import { isDatabaseUnavailable } from '../errors/database-unavailable.js';

/** `freshMs`: how long an answer (a miss too) is reused, 0: never; `staleMs`: how old a found value may answer in a database outage. */
export type LookupCacheOptions = { max: number; freshMs: number; staleMs: number };

type Read<V> = { value: V | null; readAtMs: number };

/** Database lookups in a bounded LRU cache, concurrent misses sharing one; a value found within `staleMs` answers through an outage. */
export class LookupCache<K extends object | string | number, V> {
  private readonly reads = new LRUCache<K, Read<V>, () => Promise<V | null>>({
    max: this.options.max,
    ttl: Math.max(1, this.options.freshMs),
    ttlResolution: 0,
    perf: { now: () => this.now() },
    // A stale read stays for the outage fallback; only `fetch` replaces it.
    noDeleteOnStaleGet: true,
    fetchMethod: (_key, stale, { context }) => this.lookUp(context, stale),
  });

  constructor(
    private readonly clock: Clock,
    private readonly options: LookupCacheOptions,
  ) {}

  /** The value for `key`: a fresh answer at once, else `lookup`'s (shared with concurrent misses). */
  async get(key: K, lookup: () => Promise<V | null>): Promise<V | null> {
    const fresh = this.options.freshMs > 0 ? this.reads.get(key) : undefined;
    if (fresh) return fresh.value;
    const read = await this.reads.fetch(key, { context: lookup, forceRefresh: this.options.freshMs === 0 });
    return read!.value;
  }

  /** True when `get` would answer without asking the database while it is up (fresh, or found lately). */
  isFamiliar(key: K): boolean {
    const read = this.reads.peek(key, { allowStale: true });
    return read !== undefined && (this.reads.getRemainingTTL(key) > 0 || this.foundLately(read));
  }

  private async lookUp(lookup: () => Promise<V | null>, stale: Read<V> | undefined): Promise<Read<V>> {
    try {
      return { value: await lookup(), readAtMs: this.now() };
    } catch (error) {
      if (stale && this.foundLately(stale) && isDatabaseUnavailable(error)) return stale;
      throw error;
    }
  }

  private foundLately(read: Read<V>): boolean {
    return read.value !== null && this.now() - read.readAtMs < this.options.staleMs;
  }

  private now(): number {
    return this.clock.now().getTime();
  }
}
