import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '../../common/index.js';
import { OutboxRepository, type AttemptOutcome, type ClaimedDelivery } from './outbox.repository.js';
import { signatures, WebhookSender } from './webhook-sender.js';
import { WebhooksMetrics } from './webhooks.metrics.js';
import type { WebhooksConfig } from './webhooks.config.js';

/** Events a replica fans out per statement. */
const DISPATCH_BATCH = 500;
/** How long a claimed delivery is this replica's beyond its timeout, before another replica may attempt it. */
const LEASE_MARGIN_MS = 30_000;
/** Most attempts recorded by one statement. */
const RECORD_BATCH = 200;

/**
 * Every replica runs one: it fans new events out into deliveries and attempts the due ones, `concurrency`
 * at a time, off every request path. A failed attempt is retried on the schedule, with up to 20 % jitter.
 * Under load it claims a quarter of its slots or more at once, and records the attempts that ended while a
 * record was being written in one statement, so the round trips per delivery fall as the load grows.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly config = this.configService.getOrThrow<WebhooksConfig>('webhooks');
  private readonly inFlight = new Set<Promise<void>>();
  /** Claims again once this many slots are free (or at the next poll). */
  private readonly refill = Math.ceil(this.config.concurrency / 4);
  /** Ended attempts waiting for their record, each with its attempt's end. */
  private readonly unrecorded: Array<{ outcome: AttemptOutcome; recorded: () => void }> = [];
  private recording = false;
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<void>;
  private stopped = false;
  private failing = false;

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly sender: WebhookSender,
    private readonly metrics: WebhooksMetrics,
    private readonly clock: Clock,
    private readonly configService: ConfigService,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.delivers) this.schedule(0);
  }

  /** Stops claiming, then lets the attempts under way finish (each within the timeout) so none is left to its lease. */
  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    await Promise.all(this.inFlight);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    // Unreferenced: polling never keeps a process alive by itself.
    this.timer = setTimeout(() => {
      this.ticking = this.tick().finally(() => (this.ticking = undefined));
    }, delayMs).unref();
  }

  private async tick(): Promise<void> {
    let busy = false;
    try {
      const retries = this.config.retryScheduleMs.length;
      busy = (await this.outbox.dispatch(DISPATCH_BATCH, retries)) === DISPATCH_BATCH;
      const free = this.config.concurrency - this.inFlight.size;
      if (free > 0 && !this.stopped) {
        const claimed = await this.outbox.claim(free, this.config.timeoutMs + LEASE_MARGIN_MS);
        for (const delivery of claimed) this.track(this.attempt(delivery));
        busy ||= claimed.length === free;
      }
      if (this.failing) this.logger.log('The outbox can be read again.');
      this.failing = false;
    } catch (error) {
      // Once per outage, not once per poll.
      if (!this.failing) this.logger.warn(`Could not read the outbox: ${error instanceof Error ? error.message : String(error)}`);
      this.failing = true;
    }
    // A full batch means more is waiting: go on at once (or as soon as an attempt frees a slot).
    this.schedule(busy && this.inFlight.size < this.config.concurrency ? 0 : this.config.pollIntervalMs);
  }

  private track(attempt: Promise<void>): void {
    this.inFlight.add(attempt);
    void attempt.finally(() => {
      this.inFlight.delete(attempt);
      if (this.inFlight.size === this.config.concurrency - this.refill && !this.ticking) this.schedule(0);
    });
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const attemptedAt = this.clock.now();
    const timestamp = Math.floor(attemptedAt.getTime() / 1000);
    const headers = {
      'webhook-id': delivery.eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatures(delivery.secrets, delivery.eventId, timestamp, delivery.body),
    };
    const result = await this.sender.send(delivery.url, headers, delivery.body);
    const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const retryInMs = succeeded || delivery.retriesLeft === 0 ? undefined : this.retryDelay(delivery.retriesLeft);
    this.metrics.attempts.inc({ outcome: succeeded ? 'succeeded' : retryInMs === undefined ? 'failed' : 'retrying' });
    // The attempt holds its slot until it is recorded: a replica stopping waits for its records too.
    await new Promise<void>((recorded) => {
      this.unrecorded.push({ outcome: { delivery, succeeded, retryInMs, attemptedAt, ...result }, recorded });
      if (!this.recording) void this.recordEnded();
    });
  }

  /** Records the ended attempts, a batch a statement, one statement at a time: those that end meanwhile go in the next. */
  private async recordEnded(): Promise<void> {
    this.recording = true;
    while (this.unrecorded.length > 0) {
      const batch = this.unrecorded.splice(0, RECORD_BATCH);
      try {
        await this.outbox.record(batch.map(({ outcome }) => outcome));
      } catch (error) {
        // Their leases end and the deliveries are attempted again: at least once, never lost.
        this.logger.warn(`Could not record ${batch.length} attempts: ${error instanceof Error ? error.message : String(error)}`);
      }
      for (const { recorded } of batch) recorded();
    }
    this.recording = false;
  }

  /** The schedule's next wait, with up to 20 % jitter so that retries of one burst spread out. */
  private retryDelay(retriesLeft: number): number {
    const schedule = this.config.retryScheduleMs;
    return Math.round(schedule[schedule.length - retriesLeft] * (1 + Math.random() * 0.2));
  }
}
