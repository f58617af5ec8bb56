interface Entry<V> {
  value: V;
  expiresAt: number;
}

/**
 * A small bounded in-process cache whose entries live `ttlMs` (or their own time to live). When
 * full, the oldest entry goes first, so a flood of distinct keys cannot grow memory without bound.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  get(key: K, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: K, value: V, now: number, ttlMs = this.ttlMs): void {
    if (ttlMs <= 0) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, { value, expiresAt: now + ttlMs });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}
