import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { RateLimiterService, type KeyDecision } from '../../policies/rate-limit/index.js';
import { UsageDaysRepository } from './usage-days.repository.js';
import type { UsageConfig } from './usage.config.js';
import { UsageMetrics } from './usage.metrics.js';
import { dayText, utcDayOf } from './utc-day.js';

/** Rows per statement, far under either database's limit on parameters. */
const ROWS_PER_STATEMENT = 1_000;

interface Tally {
  clientId: number;
  keyId: number;
  day: number;
  admitted: number;
  refused: number;
}

/**
 * Counts the limiter's decisions on valid keys in memory, per client, key and UTC day (the limiter's
 * day: its clock's), and adds them to `usage_days` every USAGE_FLUSH_INTERVAL_MS and when the
 * application stops, so a request costs no write. Counts a flush fails to write wait for the next.
 */
@Injectable()
export class UsageMeter implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Usage');
  private readonly intervalMs: number;
  private counts = new Map<string, Tally>();
  private flushing: Promise<void> = Promise.resolve();
  private timer?: NodeJS.Timeout;

  constructor(
    limiter: RateLimiterService,
    private readonly days: UsageDaysRepository,
    private readonly metrics: UsageMetrics,
    config: ConfigService,
  ) {
    this.intervalMs = config.getOrThrow<UsageConfig>('usage').flushIntervalMs;
    limiter.onDecision((decision) => this.record(decision));
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.flush(), this.intervalMs).unref();
  }

  /** After the server has closed, before the database does (the data source's module is global, so it closes last). */
  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    const lost = this.pendingCounts();
    if (lost > 0) this.logger.error(`Stopping with ${lost} counts of usage not written: they are lost`);
  }

  record({ clientId, keyId, outcome, nowMs }: KeyDecision): void {
    const tally = this.tallyOf(clientId, keyId, utcDayOf(nowMs));
    if (outcome === 'admitted') tally.admitted++;
    else tally.refused++;
  }

  /** Writes what was counted so far; one flush at a time. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  /** Requests counted and not yet written. */
  pendingCounts(): number {
    let sum = 0;
    for (const { admitted, refused } of this.counts.values()) sum += admitted + refused;
    return sum;
  }

  private async write(): Promise<void> {
    const tallies = [...this.counts.values()];
    this.counts = new Map();
    for (let start = 0; start < tallies.length; start += ROWS_PER_STATEMENT) {
      const rows = tallies.slice(start, start + ROWS_PER_STATEMENT);
      try {
        await this.days.add(rows.map(({ day, ...counts }) => ({ ...counts, day: dayText(day) })));
        this.metrics.flushes.inc({ outcome: 'written' });
        this.metrics.rows.inc(rows.length);
      } catch (error) {
        // Each statement commits alone, so only this one's rows and those after it are still to write.
        for (const { clientId, keyId, day, admitted, refused } of tallies.slice(start)) {
          const tally = this.tallyOf(clientId, keyId, day);
          tally.admitted += admitted;
          tally.refused += refused;
        }
        this.metrics.flushes.inc({ outcome: 'failed' });
        this.logger.warn(
          `Could not write usage (${this.pendingCounts()} counts kept for the next flush): ${error instanceof Error ? error.message : String(error)}`,
        );
        return;
      }
    }
  }

  /** A key belongs to one client, so the key and the day name the row. */
  private tallyOf(clientId: number, keyId: number, day: number): Tally {
    const id = `${keyId}:${day}`;
    let tally = this.counts.get(id);
    if (!tally) this.counts.set(id, (tally = { clientId, keyId, day, admitted: 0, refused: 0 }));
    return tally;
  }
}
