import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { ApiKeysRepository } from './api-keys.repository.js';

/** Hex digits of a key's hash kept: a guess passes about once in 2^48 / keys, and the prefix is an exact JS number. */
const HASH_PREFIX_LENGTH = 12;
/** How often another replica's or the command-line tool's new keys are fetched: a new key works from a refused address within it. */
export const REFRESH_INTERVAL_MS = 500;
/** Each refresh fetches the keys created this long before: a creation that commits late is still found. */
const RECENT_MS = 60_000;
/** How often the whole set is reloaded, which drops revoked keys. */
const RELOAD_INTERVAL_MS = 10 * 60_000;

const toNumber = (keyHash: string) => Number.parseInt(keyHash.slice(0, HASH_PREFIX_LENGTH), 16);

/**
 * The keys this service may have issued, in memory: a refused address's key is looked up only if it is
 * here, so guessing costs the database nothing while a valid key is always decided on its client's quota.
 * Loaded on first use (only a server that refuses an address asks), then kept fresh by polling, so the
 * command-line tool and the admin API never pay for it.
 */
@Injectable()
export class IssuedKeysFilter implements OnApplicationShutdown {
  private readonly logger = new Logger(IssuedKeysFilter.name);
  private prefixes = new Set<number>();
  private loading?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private refreshing?: Promise<void>;
  private reloadedAtMs = 0;
  private failing = false;

  constructor(private readonly keys: ApiKeysRepository) {}

  /** False only for a key hash this service never issued (or revoked over ten minutes ago). */
  async mightHold(keyHash: string): Promise<boolean> {
    this.loading ??= this.start();
    await this.loading;
    return this.prefixes.has(toNumber(keyHash));
  }

  /** A key this replica just issued, known here at once. */
  add(keyHash: string): void {
    this.prefixes.add(toNumber(keyHash));
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  private async start(): Promise<void> {
    try {
      await this.reload();
    } catch (error) {
      this.loading = undefined; // the next question tries again
      throw error;
    }
    this.timer = setInterval(() => {
      this.refreshing ??= this.refresh().finally(() => (this.refreshing = undefined));
    }, REFRESH_INTERVAL_MS).unref();
  }

  private async reload(): Promise<void> {
    const startedAtMs = Date.now();
    this.prefixes = new Set((await this.keys.findUnrevokedHashPrefixes(HASH_PREFIX_LENGTH)).map(toNumber));
    this.reloadedAtMs = startedAtMs;
  }

  /** A failed refresh (the database is out) keeps what is known and tries again at the next interval; logged once per outage. */
  private async refresh(): Promise<void> {
    try {
      if (Date.now() - this.reloadedAtMs >= RELOAD_INTERVAL_MS) await this.reload();
      else
        for (const prefix of await this.keys.findUnrevokedHashPrefixes(HASH_PREFIX_LENGTH, new Date(Date.now() - RECENT_MS)))
          this.add(prefix);
      if (this.failing) this.logger.log('Refreshing the issued keys again');
      this.failing = false;
    } catch (error) {
      if (!this.failing) this.logger.warn(`Could not refresh the issued keys: ${error instanceof Error ? error.message : String(error)}`);
      this.failing = true;
    }
  }
}
