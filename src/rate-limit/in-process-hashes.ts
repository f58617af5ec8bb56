import type { Clock } from '../common/index.js';

interface Hash {
  fields: Map<string, string>;
  expiresAtMs: number;
}

const SWEEP_INTERVAL_MS = 60_000;
/** When full, expired hashes are swept at most this often before the table says it has no room. */
const FULL_SWEEP_INTERVAL_MS = 1_000;

/**
 * What a full table does with a hash it has no room for: `evict-least-recent` drops the hash
 * used longest ago (its counts start over); `refuse-new` keeps every hash it has and says so in
 * `hasRoomFor`, so the caller refuses the newcomer and nobody's counts are reset.
 */
export type WhenFull = 'evict-least-recent' | 'refuse-new';

/**
 * The few Redis hash commands the limiter script uses (HMGET, HSET, PEXPIREAT), over this
 * process's memory, with expiry by the service clock and a periodic sweep of expired hashes.
 * At most `capacity` hashes, so a flood of distinct subjects cannot grow memory without bound.
 */
export class InProcessHashes {
  private readonly hashes = new Map<string, Hash>();
  private readonly sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS).unref();
  private lastSweepMs = -Infinity;

  constructor(
    private readonly clock: Clock,
    private readonly capacity = Infinity,
    private readonly whenFull: WhenFull = 'evict-least-recent',
  ) {}

  get size(): number {
    return this.hashes.size;
  }

  /** False when the table refuses new hashes, is full, and `key` has none. */
  hasRoomFor(key: string): boolean {
    return this.whenFull !== 'refuse-new' || this.live(key) !== undefined || this.makeRoom();
  }

  call(command: string, key: string, args: unknown[]): unknown {
    switch (command) {
      case 'HMGET': {
        const hash = this.live(key);
        return args.map((field) => hash?.fields.get(String(field)) ?? false);
      }
      case 'HSET': {
        const hash = this.live(key) ?? this.admit(key);
        for (let i = 0; i < args.length; i += 2) hash.fields.set(String(args[i]), String(args[i + 1]));
        return 1;
      }
      case 'PEXPIREAT': {
        const hash = this.live(key);
        if (hash) hash.expiresAtMs = Number(args[0]);
        return hash ? 1 : 0;
      }
      default:
        throw new Error(`The in-process limiter does not implement ${command}`);
    }
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  /** The key's hash if it has not expired, moved to the most recently used end. */
  private live(key: string): Hash | undefined {
    const hash = this.hashes.get(key);
    if (!hash) return undefined;
    this.hashes.delete(key);
    if (hash.expiresAtMs <= this.clock.now().getTime()) return undefined;
    this.hashes.set(key, hash);
    return hash;
  }

  /** True when there is room for one more hash, after sweeping expired ones if it is full (at most once a second). */
  private makeRoom(): boolean {
    if (this.hashes.size < this.capacity) return true;
    if (this.clock.now().getTime() - this.lastSweepMs >= FULL_SWEEP_INTERVAL_MS) this.sweep();
    return this.hashes.size < this.capacity;
  }

  private admit(key: string): Hash {
    if (!this.makeRoom()) this.hashes.delete(this.hashes.keys().next().value as string);
    const hash = { fields: new Map<string, string>(), expiresAtMs: Infinity };
    this.hashes.set(key, hash);
    return hash;
  }

  private sweep(): void {
    const now = this.clock.now().getTime();
    this.lastSweepMs = now;
    for (const [key, hash] of this.hashes) if (hash.expiresAtMs <= now) this.hashes.delete(key);
  }
}
