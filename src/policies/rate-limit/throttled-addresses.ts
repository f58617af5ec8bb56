import { LRUCache } from 'lru-cache';
import type { Clock } from '../../common/index.js';

/** Addresses remembered as refused; when full the least recent is forgotten (it then costs lookups again). */
const MAX_ADDRESSES = 10_000;
/** Lookups of unfamiliar keys a refused address still gets each minute, so a fixed key gets through. */
export const UNFAMILIAR_LOOKUPS_PER_MINUTE = 10;
const MINUTE_MS = 60_000;

interface Throttled {
  minute: number;
  lookups: number;
}

/**
 * Anonymous callers the limiter refused, remembered until their refusing window ends, and the
 * database lookups of unfamiliar keys each may still cause: a key guesser's lookups stop at the
 * quota plus a small trickle a minute, which also lets a caller who fixed its key through.
 */
export class ThrottledAddresses {
  private readonly refused: LRUCache<string, Throttled>;

  constructor(private readonly clock: Clock) {
    this.refused = new LRUCache({ max: MAX_ADDRESSES, ttlResolution: 0, perf: { now: () => this.now() } });
  }

  refuse(subject: string, forMs: number): void {
    this.refused.set(subject, this.refused.get(subject) ?? { minute: -1, lookups: 0 }, { ttl: forMs });
  }

  /** True while the address is remembered as refused. */
  isRefused(subject: string): boolean {
    return this.refused.has(subject);
  }

  /** True unless the address is refused and has spent this minute's lookups of unfamiliar keys. */
  mayLookUp(subject: string): boolean {
    const throttled = this.refused.get(subject);
    if (!throttled) return true;
    const minute = Math.floor(this.now() / MINUTE_MS);
    if (throttled.minute !== minute) Object.assign(throttled, { minute, lookups: 0 });
    return throttled.lookups++ < UNFAMILIAR_LOOKUPS_PER_MINUTE;
  }

  private now(): number {
    return this.clock.now().getTime();
  }
}
