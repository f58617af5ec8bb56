import type { Logger } from '@nestjs/common';
import type { RedisClient } from './redis-client.js';

const PROBE_INTERVAL_MS = 1_000;

export interface CircuitMessages {
  /** Logged once when Redis stops answering; receives the error's message. */
  down: (reason: string) => string;
  /** Logged once when Redis answers again. */
  up: string;
}

/**
 * Whether a feature backed by Redis should use it right now. A failed command opens the circuit:
 * the feature serves from its fallback without waiting on Redis again; a probe pings Redis every
 * second (and on reconnection) and closes the circuit when it answers. Each transition is logged
 * once. The client fails fast (no offline queue, bounded command time), so nothing stalls.
 */
export class RedisCircuit {
  private probe?: NodeJS.Timeout;

  constructor(
    private readonly redis: RedisClient,
    private readonly logger: Logger,
    private readonly messages: CircuitMessages,
  ) {
    // Connection errors also surface as events; the first failed command opens the circuit.
    redis.on('error', () => undefined);
    redis.on('ready', () => void this.tryRedis());
  }

  /**
   * Open after a failure until a probe answers, and whenever the client has no live connection
   * (still connecting at start, or reconnecting after Redis went away while nothing was sent), so
   * readiness reports the fallback before any request has failed.
   */
  get isOpen(): boolean {
    return this.probe !== undefined || this.redis.status !== 'ready';
  }

  /** `primary` while Redis answers; `fallback` while the circuit is open or when `primary` fails. */
  async run<T>(primary: () => Promise<T>, fallback: () => Promise<T>): Promise<T> {
    if (!this.isOpen) {
      try {
        return await primary();
      } catch (error) {
        this.trip(error);
      }
    } else {
      this.trip(new Error(`no connection (${this.redis.status})`));
    }
    return fallback();
  }

  trip(error: unknown): void {
    if (this.probe) return;
    this.logger.warn(this.messages.down(error instanceof Error ? error.message : String(error)));
    this.probe = setInterval(() => void this.tryRedis(), PROBE_INTERVAL_MS).unref();
  }

  close(): void {
    clearInterval(this.probe);
    this.probe = undefined;
  }

  private async tryRedis(): Promise<void> {
    if (!this.probe) return;
    try {
      await this.redis.ping();
    } catch {
      return;
    }
    this.close();
    this.logger.log(this.messages.up);
  }
}
