import { Injectable, Logger } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';
import { OutboxRepository } from './outbox.repository.js';

type Backlog = Awaited<ReturnType<OutboxRepository['backlog']>>;

/** Attempts by outcome, counted by the replica that made them; the backlog gauges read the shared outbox, once per scrape. */
@Injectable()
export class WebhooksMetrics {
  private readonly logger = new Logger('Webhooks');
  readonly attempts: Counter<'outcome'>;
  private reading?: Promise<Backlog | undefined>;

  constructor(
    registry: Registry,
    private readonly outbox: OutboxRepository,
  ) {
    this.attempts = new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Attempts to deliver an event: succeeded, retrying (failed, a retry is scheduled) or failed (no retry left).',
      labelNames: ['outcome'],
      registers: [registry],
    });
    const gauge = (name: string, help: string, read: (backlog: Backlog) => number) => {
      const backlog = () => this.backlog();
      new Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          const value = await backlog();
          if (value) this.set(read(value));
        },
      });
    };
    gauge('webhook_deliveries_pending', "Deliveries neither succeeded nor failed yet, every replica's.", (b) => b.pending);
    gauge(
      'webhook_delivery_lag_seconds',
      'How long the oldest due delivery, or event not yet fanned out, has waited.',
      (b) => b.lagSeconds,
    );
  }

  /** One query serves both gauges of a scrape; a failed one leaves them as they were. */
  private backlog(): Promise<Backlog | undefined> {
    this.reading ??= this.outbox
      .backlog()
      .catch((error: unknown) => {
        this.logger.warn(`Could not read the webhook backlog: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      })
      .finally(() => setTimeout(() => (this.reading = undefined), 1_000).unref());
    return this.reading;
  }
}
