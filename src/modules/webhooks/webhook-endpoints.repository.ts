import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, type Repository } from 'typeorm';
import { TransactionHost } from '../../platform/database/index.js';
import { WebhookAttempt } from './entities/webhook-attempt.entity.js';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';

export type EndpointChange = Partial<
  Pick<WebhookEndpoint, 'url' | 'eventTypes' | 'description' | 'enabled' | 'disabledReason' | 'failingSince'>
>;

/** A client's endpoints and their attempts; writes join the change's transaction. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(
    @InjectRepository(WebhookEndpoint) private readonly endpoints: Repository<WebhookEndpoint>,
    @InjectRepository(WebhookAttempt) private readonly attempts: Repository<WebhookAttempt>,
    private readonly txHost: TransactionHost,
  ) {}

  findOfClient(clientId: number): Promise<WebhookEndpoint[]> {
    return this.endpoints.find({ where: { clientId }, order: { id: 'ASC' } });
  }

  findOne(id: number, clientId?: number): Promise<WebhookEndpoint | null> {
    return this.txHost.tx.getRepository(WebhookEndpoint).findOneBy({ id, ...(clientId !== undefined && { clientId }) });
  }

  /** Counted under a lock of the client's endpoints, so two concurrent creations cannot both pass the limit. */
  async countLocked(clientId: number): Promise<number> {
    await this.txHost.tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('webhook_endpoints:' || $1, 0))`, [clientId]);
    return this.txHost.tx.getRepository(WebhookEndpoint).countBy({ clientId });
  }

  /** Clients with an enabled endpoint subscribed to `eventType`. */
  async clientsSubscribedTo(eventType: string): Promise<number[]> {
    const rows = await this.endpoints.query<Array<{ client_id: string }>>(
      'SELECT DISTINCT client_id FROM webhook_endpoints WHERE enabled AND $1 = ANY (event_types)',
      [eventType],
    );
    return rows.map((row) => Number(row.client_id));
  }

  insert(endpoint: Pick<WebhookEndpoint, 'clientId' | 'url' | 'eventTypes' | 'description' | 'secret'>): Promise<WebhookEndpoint> {
    const endpoints = this.txHost.tx.getRepository(WebhookEndpoint);
    return endpoints.save(endpoints.create(endpoint));
  }

  async update(
    endpoint: WebhookEndpoint,
    change: EndpointChange | Pick<WebhookEndpoint, 'secret' | 'previousSecret' | 'previousSecretUntil'>,
  ): Promise<WebhookEndpoint> {
    await this.txHost.tx.getRepository(WebhookEndpoint).update({ id: endpoint.id }, change);
    return Object.assign(endpoint, change);
  }

  async delete(id: number): Promise<void> {
    await this.txHost.tx.getRepository(WebhookEndpoint).delete({ id });
  }

  /** Up to `take` attempts at the endpoint, newest first, before the attempt `before` (from the newest without). */
  findAttempts(endpointId: number, before: number | undefined, take: number): Promise<WebhookAttempt[]> {
    return this.attempts.find({
      where: { endpointId, ...(before !== undefined && { id: LessThan(before) }) },
      order: { id: 'DESC' },
      take,
    });
  }
}
