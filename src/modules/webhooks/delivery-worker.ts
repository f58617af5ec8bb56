import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '../../common/index.js';
import { OutboxRepository, type ClaimedDelivery } from './outbox.repository.js';
import { signatures, WebhookSender } from './webhook-sender.js';
import { WebhooksMetrics } from './webhooks.metrics.js';
import type { WebhooksConfig } from './webhooks.config.js';

/** Events a replica fans out per statement. */
const DISPATCH_BATCH = 500;
/** How long a claimed delivery is this replica's beyond its timeout, before another replica may attempt it. */
const LEASE_MARGIN_MS = 30_000;

/**
 * Every replica runs one: it fans new events out into deliveries and attempts the due ones, `concurrency`
 * at a time, off every request path. A failed attempt is retried on the schedule, with up to 20 % jitter.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly config = this.configService.getOrThrow<WebhooksConfig>('webhooks');
  private readonly inFlight = new Set<Promise<void>>();
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
    this.timer = setTimeout(() => {
      this.ticking = this.tick().finally(() => (this.ticking = undefined));
    }, delayMs);
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
      if (this.inFlight.size === this.config.concurrency - 1 && !this.ticking) this.schedule(0);
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
    try {
      await this.outbox.record({ delivery, succeeded, retryInMs, attemptedAt, ...result });
    } catch (error) {
      // The lease ends and the delivery is attempted again: at least once, never lost.
      this.logger.warn(`Could not record an attempt of ${delivery.eventId}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The schedule's next wait, with up to 20 % jitter so that retries of one burst spread out. */
  private retryDelay(retriesLeft: number): number {
    const schedule = this.config.retryScheduleMs;
    return Math.round(schedule[schedule.length - retriesLeft] * (1 + Math.random() * 0.2));
  }
}
