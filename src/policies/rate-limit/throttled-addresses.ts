import { TtlCache } from '../../common/index.js';

/** Addresses remembered as refused; when full the oldest is forgotten (it then costs lookups again). */
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
  private readonly refused = new TtlCache<string, Throttled>(0, MAX_ADDRESSES);

  refuse(subject: string, now: number, forMs: number): void {
    this.refused.set(subject, this.refused.get(subject, now) ?? { minute: -1, lookups: 0 }, now, forMs);
  }

  /** True while the address is remembered as refused. */
  isRefused(subject: string, now: number): boolean {
    return this.refused.get(subject, now) !== undefined;
  }

  /** True unless the address is refused and has spent this minute's lookups of unfamiliar keys. */
  mayLookUp(subject: string, now: number): boolean {
    const throttled = this.refused.get(subject, now);
    if (!throttled) return true;
    const minute = Math.floor(now / MINUTE_MS);
    if (throttled.minute !== minute) Object.assign(throttled, { minute, lookups: 0 });
    return throttled.lookups++ < UNFAMILIAR_LOOKUPS_PER_MINUTE;
  }
}
