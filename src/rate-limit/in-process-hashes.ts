import type { Clock } from '../common/clock/clock.js';

interface Hash {
  fields: Map<string, string>;
  expiresAtMs: number;
}

const SWEEP_INTERVAL_MS = 60_000;

/**
 * The few Redis hash commands the limiter script uses (HMGET, HSET, PEXPIREAT), over this
 * process's memory, with expiry by the service clock and a periodic sweep of expired hashes.
 */
export class InProcessHashes {
  private readonly hashes = new Map<string, Hash>();
  private readonly sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS).unref();

  constructor(private readonly clock: Clock) {}

  call(command: string, key: string, args: unknown[]): unknown {
    switch (command) {
      case 'HMGET': {
        const hash = this.live(key);
        return args.map((field) => hash?.fields.get(String(field)) ?? false);
      }
      case 'HSET': {
        const hash = this.live(key) ?? { fields: new Map<string, string>(), expiresAtMs: Infinity };
        for (let i = 0; i < args.length; i += 2) hash.fields.set(String(args[i]), String(args[i + 1]));
        this.hashes.set(key, hash);
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

  private live(key: string): Hash | undefined {
    const hash = this.hashes.get(key);
    if (hash && hash.expiresAtMs <= this.clock.now().getTime()) {
      this.hashes.delete(key);
      return undefined;
    }
    return hash;
  }

  private sweep(): void {
    const now = this.clock.now().getTime();
    for (const [key, hash] of this.hashes) if (hash.expiresAtMs <= now) this.hashes.delete(key);
  }
}
