import { Injectable } from '@nestjs/common';
import { HourlyPurge } from '../../common/index.js';
import { OutboxRepository } from './outbox.repository.js';

/** How long events and attempts are kept: past the whole retry schedule, and long enough to redeliver. */
export const WEBHOOK_RETENTION_DAYS = 30;

@Injectable()
export class WebhookRetention extends HourlyPurge {
  constructor(private readonly outbox: OutboxRepository) {
    super('Webhooks', 'old webhook events and attempts');
  }

  protected purge(): Promise<number> {
    return this.outbox.purge(WEBHOOK_RETENTION_DAYS);
  }
}
