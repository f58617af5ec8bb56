import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { Clock } from '../../common/index.js';
import { ApiKeysService } from '../auth/index.js';
import { RateLimiterService, type KeyDecision } from '../../policies/rate-limit/index.js';
import { OutboxRepository } from './outbox.repository.js';
import { newEvent, type Audience, type WebhookEventType } from './webhook-event.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { publicFields } from './webhook-triggers.js';

const QUOTA_THRESHOLDS = [80, 100] as const;
/** A key is announced as expiring this long before it does: 7 days. */
const EXPIRY_NOTICE_MS = 7 * 86_400_000;
const EXPIRY_SWEEP_MS = 60 * 60_000;

/** The events of the serving replicas alone, each written once (`onceKey`): a day's quota thresholds (the limiter's) and keys soon expiring (the clock's). */
@Injectable()
export class WebhookWatch implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  /** Thresholds this replica has written (or is writing): one insert per client, day and threshold, whatever the traffic. */
  private readonly thresholdsWritten = new LRUCache<string, true>({ max: 100_000 });
  private sweepTimer?: NodeJS.Timeout;

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly keys: ApiKeysService,
    private readonly clock: Clock,
    limiter: RateLimiterService,
  ) {
    limiter.onDecision((decision) => this.onDecision(decision));
  }

  onApplicationBootstrap(): void {
    this.sweepTimer = setInterval(() => void this.announceExpiringKeys(), EXPIRY_SWEEP_MS).unref();
    void this.announceExpiringKeys();
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweepTimer);
  }

  /**
   * A threshold crossed: written off the request, once per client, UTC day and threshold across replicas (the
   * outbox refuses a second `onceKey`). A failed write is forgotten here, so the client's next request tries again.
   */
  private onDecision({ clientId, outcome, plan, day }: KeyDecision): void {
    if (outcome !== 'admitted') return;
    for (const threshold of QUOTA_THRESHOLDS) {
      // The day is named by its end: the limiter's reset.
      const onceKey = `quota:${clientId}:${day.resetMs}:${threshold}`;
      if (day.used * 100 < threshold * day.limit || this.thresholdsWritten.has(onceKey)) continue;
      this.thresholdsWritten.set(onceKey, true);
      const data = { plan, window: 'day', threshold, limit: day.limit, used: day.used, reset: day.resetMs / 1000 };
      this.write('quota.threshold_reached', { clientId }, data, onceKey).catch((error: unknown) => {
        this.thresholdsWritten.delete(onceKey);
        this.logger.warn(`Could not write a quota threshold event: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
  }

  /** `key.expiring` for the live keys that expire within 7 days, once per key, for the clients that subscribe to it. */
  async announceExpiringKeys(): Promise<void> {
    try {
      const soon = this.clock.now().getTime() + EXPIRY_NOTICE_MS;
      for (const clientId of await this.endpoints.clientsSubscribedTo('key.expiring')) {
        for (const key of await this.keys.listLive(clientId)) {
          if (key.expiresAt === null || Date.parse(key.expiresAt) > soon) continue;
          await this.write('key.expiring', { clientId }, publicFields(key), `key.expiring:${key.id}`);
        }
      }
    } catch (error) {
      this.logger.warn(`Could not announce expiring keys: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async write(type: WebhookEventType, audience: Audience, data: object, onceKey?: string): Promise<void> {
    await this.outbox.write(newEvent(type, audience, data, this.clock.now(), onceKey));
  }
}
