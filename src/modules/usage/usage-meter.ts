import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Counter, Registry } from 'prom-client';
import { RateLimiterService, type KeyDecision } from '../../policies/rate-limit/index.js';
import type { UsageDay } from './entities/usage-day.entity.js';
import { UsageDaysRepository } from './usage-days.repository.js';
import type { UsageConfig } from './usage.config.js';
import { dayText, utcDayOf } from './utc-day.js';

/** Rows per statement, far under PostgreSQL's limit on parameters. */
const ROWS_PER_STATEMENT = 1_000;

/** A row's counts, its day as a day number. */
type Tally = Omit<UsageDay, 'day'> & { day: number };

/**
 * Counts the limiter's decisions on valid keys in memory, per client, key and UTC day (the limiter's
 * day: its clock's), and adds them to `usage_days` every USAGE_FLUSH_INTERVAL_MS and when the
 * application stops, so a request costs no write. Counts a flush fails to write wait for the next.
 */
@Injectable()
export class UsageMeter implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Usage');
  private readonly flushes = new Counter({
    name: 'usage_flush_statements_total',
    help: 'Statements that wrote usage counts to the database, by outcome (written or failed, kept for the next flush).',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  private readonly flushedRows = new Counter({
    name: 'usage_flush_rows_total',
    help: 'Rows of usage_days (client, key, UTC day) written by flushes.',
    registers: [this.registry],
  });
  private counts = new Map<string, Tally>();
  private flushing: Promise<void> = Promise.resolve();
  private timer?: NodeJS.Timeout;

  constructor(
    limiter: RateLimiterService,
    private readonly days: UsageDaysRepository,
    private readonly config: ConfigService,
    private readonly registry: Registry,
  ) {
    limiter.onDecision((decision) => this.record(decision));
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.flush(), this.config.getOrThrow<UsageConfig>('usage').flushIntervalMs).unref();
  }

  /** After the server has closed, before the database does (the data source's module is global, so it closes last). */
  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    const lost = this.pendingCounts();
    if (lost > 0) this.logger.error(`Stopping with ${lost} counts of usage not written: they are lost`);
  }

  record({ clientId, keyId, outcome, nowMs }: KeyDecision): void {
    const admitted = outcome === 'admitted' ? 1 : 0;
    this.add({ clientId, keyId, day: utcDayOf(nowMs), admitted, refused: 1 - admitted });
  }

  /** Writes what was counted so far; one flush at a time. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  pendingCounts(): number {
    return [...this.counts.values()].reduce((sum, { admitted, refused }) => sum + admitted + refused, 0);
  }

  private async write(): Promise<void> {
    const tallies = [...this.counts.values()];
    this.counts = new Map();
    for (let start = 0; start < tallies.length; start += ROWS_PER_STATEMENT) {
      const rows = tallies.slice(start, start + ROWS_PER_STATEMENT);
      try {
        await this.days.add(rows.map(({ day, ...counts }) => ({ ...counts, day: dayText(day) })));
        this.flushes.inc({ outcome: 'written' });
        this.flushedRows.inc(rows.length);
      } catch (error) {
        // Each statement commits alone, so only this one's rows and those after it are still to write.
        for (const tally of tallies.slice(start)) this.add(tally);
        this.flushes.inc({ outcome: 'failed' });
        this.logger.warn(
          `Could not write usage (${this.pendingCounts()} counts kept for the next flush): ${error instanceof Error ? error.message : String(error)}`,
        );
        return;
      }
    }
  }

  /** A key belongs to one client, so the key and the day name the row. */
  private add(counts: Tally): void {
    const id = `${counts.keyId}:${counts.day}`;
    const tally = this.counts.get(id);
    if (!tally) this.counts.set(id, { ...counts });
    else {
      tally.admitted += counts.admitted;
      tally.refused += counts.refused;
    }
  }
}
