import type { Logger } from '@nestjs/common';
import calculateSlot from 'cluster-key-slot';
import { Cluster } from 'ioredis';
import type { RedisClient } from './redis.module.js';

const PROBE_INTERVAL_MS = 1_000;
/** The target of a single Redis: every key lives on the one server. */
const SERVER = 'server';

/** A failed command opens only its place (server or Cluster slot) for the fallback, until a probe re-reading the key answers. */
export class RedisCircuit {
  /** Open places, each with the key its probe reads and the pending probe. */
  private readonly open = new Map<string, { key: string; probe?: NodeJS.Timeout }>();
  private announcedDown = false;
  private closed = false;

  constructor(
    private readonly redis: RedisClient,
    private readonly logger: Logger,
    /** Logged when the feature stops using Redis (given what failed), and when it uses all of it again. */
    private readonly messages: { down: (reason: string) => string; up: string },
  ) {
    // Connection errors also surface as events; a failed command opens the circuit.
    redis.on('error', () => undefined);
    redis.on('ready', () => {
      for (const place of this.open.keys()) void this.probe(place);
      this.announce();
    });
  }

  /** Also while the client has no live connection, so readiness reports the fallback before any request has failed. */
  get isOpen(): boolean {
    return this.open.size > 0 || this.redis.status !== 'ready';
  }

  /** `primary` while the place serving `key` answers; `fallback` while it is open or when `primary` fails. */
  async run<T>(key: string, primary: () => Promise<T>, fallback: () => Promise<T>): Promise<T> {
    if (this.redis.status !== 'ready') {
      this.announce(`no connection (${this.redis.status})`);
      return fallback();
    }
    if (this.open.size === 0 || !this.open.has(this.placeOf(key))) {
      try {
        return await primary();
      } catch (error) {
        this.trip(key, error);
      }
    }
    return fallback();
  }

  trip(key: string, error: unknown): void {
    const place = this.placeOf(key);
    if (this.open.has(place)) return;
    this.open.set(place, { key });
    this.schedule(place);
    const reason = error instanceof Error ? error.message : String(error);
    this.announce(place === SERVER ? reason : `${place}: ${reason}`);
  }

  close(): void {
    this.closed = true;
    for (const { probe } of this.open.values()) clearTimeout(probe);
    this.open.clear();
  }

  /** A slot, not its node: the slot map changes while a node fails, and a renamed place would cost another timeout. */
  private placeOf(key: string): string {
    return this.redis instanceof Cluster ? `slot ${calculateSlot(key)}` : SERVER;
  }

  private schedule(place: string): void {
    const entry = this.open.get(place);
    if (!entry || this.closed) return;
    clearTimeout(entry.probe);
    entry.probe = setTimeout(() => void this.probe(place), PROBE_INTERVAL_MS).unref();
  }

  private async probe(place: string): Promise<void> {
    const entry = this.open.get(place);
    if (!entry) return;
    try {
      await this.redis.exists(entry.key);
    } catch {
      this.schedule(place);
      return;
    }
    clearTimeout(entry.probe);
    this.open.delete(place);
    this.announce();
  }

  /** Logs down when the first place opens, up when the last one closes. */
  private announce(reason = 'unknown'): void {
    if (this.isOpen && !this.announcedDown) {
      this.announcedDown = true;
      this.logger.warn(this.messages.down(reason));
    } else if (!this.isOpen && this.announcedDown) {
      this.announcedDown = false;
      this.logger.log(this.messages.up);
    }
  }
}
