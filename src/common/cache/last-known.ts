import { isDatabaseUnavailable } from '../errors/database-unavailable.js';
import { TtlCache } from './ttl-cache.js';

/**
 * The last value read from the database for each key, kept `staleMs`, to go on with while the
 * database cannot be reached. Only that error falls back: a bug or a failed query still fails.
 */
export class LastKnown<K, V> {
  private readonly values: TtlCache<K, V>;

  constructor(staleMs: number, maxEntries: number) {
    this.values = new TtlCache(staleMs, maxEntries);
  }

  /** Runs `read`; when the database is unavailable, answers the value last remembered instead, if any. */
  async read<R>(key: K, now: number, read: () => Promise<R>): Promise<R | V> {
    try {
      return await read();
    } catch (error) {
      const last = isDatabaseUnavailable(error) ? this.values.get(key, now) : undefined;
      if (last === undefined) throw error;
      return last;
    }
  }

  remember(key: K, value: V, now: number): void {
    this.values.set(key, value, now);
  }

  forget(key: K): void {
    this.values.delete(key);
  }

  has(key: K, now: number): boolean {
    return this.values.get(key, now) !== undefined;
  }
}
