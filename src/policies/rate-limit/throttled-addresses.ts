import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../../common/index.js';
import { MINUTE_MS } from './limiter.store.js';

const MAX_ADDRESSES = 10_000;
/** Lookups of unfamiliar keys a refused address still gets each minute, so a fixed key gets through. */
export const UNFAMILIAR_LOOKUPS_PER_MINUTE = 10;

/** What a caller without a valid key is counted for: its IPv4 address, or its IPv6 /64, the smallest block a subscriber gets. */
export function anonymousSubject(ip: string | undefined): string {
  if (!ip || !ipaddr.isValid(ip)) return 'unknown';
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const [a, b, c, d] = (address as ipaddr.IPv6).parts;
  return `${new ipaddr.IPv6([a, b, c, d, 0, 0, 0, 0]).toString()}/64`;
}

/** Refused anonymous callers until their window ends, with a trickle of unfamiliar keys' lookups: enough for a fixed key, not a guesser. */
export class ThrottledAddresses {
  private readonly refused: LRUCache<string, { minute: number; lookups: number }>;

  constructor(private readonly clock: Clock) {
    this.refused = new LRUCache({ max: MAX_ADDRESSES, ttlResolution: 0, perf: { now: () => clock.now().getTime() } });
  }

  refuse(subject: string, forMs: number): void {
    this.refused.set(subject, this.refused.get(subject) ?? { minute: -1, lookups: 0 }, { ttl: forMs });
  }

  isRefused(subject: string): boolean {
    return this.refused.has(subject);
  }

  /** False once a refused address has spent this minute's lookups. */
  mayLookUp(subject: string): boolean {
    const throttled = this.refused.get(subject);
    if (!throttled) return true;
    const minute = Math.floor(this.clock.now().getTime() / MINUTE_MS);
    if (throttled.minute !== minute) Object.assign(throttled, { minute, lookups: 0 });
    return throttled.lookups++ < UNFAMILIAR_LOOKUPS_PER_MINUTE;
  }
}
