import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock, DEFAULT_PAGE_SIZE, pageStart, toPage, ValidationFailedException, type Page, type PageRequest } from '../../common/index.js';
import { AuditLog, type ChangeContext } from '../audit/index.js';
import type { AppConfig } from '../../platform/config/index.js';
import { TransactionHost } from '../../platform/database/index.js';
import type { WebhookAttempt } from './entities/webhook-attempt.entity.js';
import type { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';
import { OutboxRepository } from './outbox.repository.js';
import { checkTarget, HostResolver } from './target-address.js';
import { newEvent } from './webhook-event.js';
import { WebhookEndpointsRepository, type EndpointChange } from './webhook-endpoints.repository.js';
import type { WebhooksConfig } from './webhooks.config.js';
import { EndpointLimitReachedException, EndpointNotFoundException } from './webhooks.exceptions.js';

/** Endpoints a client may have (docs/contract/decisions.md). */
export const MAX_ENDPOINTS = 10;

export type EndpointView = ReturnType<typeof toEndpointView>;
export type AttemptView = ReturnType<typeof toAttemptView>;
export type OperatorEndpointView = ReturnType<typeof toOperatorView>;
export type EndpointFields = Pick<WebhookEndpoint, 'url' | 'eventTypes'> & { description?: string };

/** The rules of a client's endpoints: a URL that reaches a public address, ten endpoints, a secret shown once. */
@Injectable()
export class WebhookEndpointsService {
  private readonly production = this.config.getOrThrow<AppConfig>('app').production;
  private readonly allowPrivate = this.config.getOrThrow<WebhooksConfig>('webhooks').allowPrivateTargets;

  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly outbox: OutboxRepository,
    private readonly txHost: TransactionHost,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    private readonly config: ConfigService,
    @Inject(HostResolver) private readonly resolver: HostResolver,
  ) {}

  async list(clientId: number): Promise<EndpointView[]> {
    return (await this.endpoints.findOfClient(clientId)).map(toEndpointView);
  }

  async get(clientId: number, id: number): Promise<EndpointView> {
    return toEndpointView(await this.find(clientId, id));
  }

  async create(clientId: number, { url, eventTypes, description = '' }: EndpointFields, change: ChangeContext) {
    await this.checkUrl(url);
    const secret = newSecret();
    return this.txHost.withTransaction(async () => {
      if ((await this.endpoints.countLocked(clientId)) >= MAX_ENDPOINTS) throw new EndpointLimitReachedException(MAX_ENDPOINTS);
      const endpoint = await this.endpoints.insert({ clientId, url, eventTypes: unique(eventTypes), description, secret });
      await this.record(change, 'webhook_endpoint.created', endpoint);
      return { ...toEndpointView(endpoint), secret };
    });
  }

  /** Enabling an endpoint again clears why it was disabled, and its failing streak. */
  async update(clientId: number, id: number, patch: Partial<EndpointFields & { enabled: boolean }>, change: ChangeContext) {
    if (patch.url !== undefined) await this.checkUrl(patch.url);
    return this.txHost.withTransaction(async () => {
      const endpoint = await this.find(clientId, id);
      const changes: EndpointChange = { ...patch, ...(patch.eventTypes && { eventTypes: unique(patch.eventTypes) }) };
      if (patch.enabled === true && !endpoint.enabled) Object.assign(changes, { disabledReason: null, failingSince: null });
      const updated = await this.endpoints.update(endpoint, changes);
      await this.record(change, 'webhook_endpoint.updated', updated, { changed: Object.keys(patch) });
      return toEndpointView(updated);
    });
  }

  async remove(clientId: number, id: number, change: ChangeContext): Promise<void> {
    await this.txHost.withTransaction(async () => {
      const endpoint = await this.find(clientId, id);
      await this.endpoints.delete(endpoint.id);
      await this.record(change, 'webhook_endpoint.deleted', endpoint);
    });
  }

  /** A new secret; deliveries carry both signatures until the overlap ends. */
  async rotateSecret(clientId: number, id: number, overlapSeconds: number, change: ChangeContext) {
    const secret = newSecret();
    return this.txHost.withTransaction(async () => {
      const endpoint = await this.find(clientId, id);
      const previousSecretUntil = new Date(this.clock.now().getTime() + overlapSeconds * 1000);
      await this.endpoints.update(endpoint, { secret, previousSecret: endpoint.secret, previousSecretUntil });
      await this.record(change, 'webhook_endpoint.secret_rotated', endpoint, { overlapSeconds });
      return { ...toEndpointView(endpoint), secret };
    });
  }

  /** A `webhook.test` event for this endpoint alone; delivered like any other. */
  async sendTest(clientId: number, id: number): Promise<{ eventId: string }> {
    const endpoint = await this.find(clientId, id);
    const event = newEvent('webhook.test', { endpointId: endpoint.id }, { endpointId: endpoint.id }, this.clock.now());
    await this.outbox.write(event);
    return { eventId: event.id };
  }

  /** The attempts at one of the client's endpoints, newest first; at any client's (`clientId` undefined) for operators. */
  async attempts(clientId: number | undefined, id: number, { cursor, limit = DEFAULT_PAGE_SIZE }: PageRequest): Promise<Page<AttemptView>> {
    const endpoint = await this.find(clientId, id);
    const listing = { endpointId: endpoint.id };
    const { items, nextCursor } = toPage(
      await this.endpoints.findAttempts(endpoint.id, pageStart(cursor, listing), limit + 1),
      limit,
      listing,
    );
    return { items: items.map(toAttemptView), nextCursor };
  }

  /** Operators (the admin API, the command-line tool): a client's endpoints, each with its URL's host only. */
  async listForOperator(clientId: number): Promise<OperatorEndpointView[]> {
    return (await this.endpoints.findOfClient(clientId)).map(toOperatorView);
  }

  /** Operators: any client's endpoint is sent nothing more until the client enables it again; one already disabled is left as it is. */
  async disable(id: number, change: ChangeContext): Promise<{ endpoint: OperatorEndpointView; alreadyDisabled: boolean }> {
    return this.txHost.withTransaction(async () => {
      const endpoint = await this.find(undefined, id);
      if (!endpoint.enabled) return { endpoint: toOperatorView(endpoint), alreadyDisabled: true };
      const disabled = await this.endpoints.update(endpoint, { enabled: false, disabledReason: 'Disabled by an operator.' });
      await this.record(change, 'webhook_endpoint.disabled', disabled);
      return { endpoint: toOperatorView(disabled), alreadyDisabled: false };
    });
  }

  async redeliver(clientId: number, id: number, eventId: string): Promise<void> {
    const endpoint = await this.find(clientId, id);
    if (!(await this.outbox.redeliver(endpoint.id, eventId))) {
      throw new EndpointNotFoundException(`Event ${eventId} was never delivered to this endpoint.`);
    }
  }

  /** Another client's endpoint is not found, as one that does not exist; operators (`clientId` undefined) find any. */
  private async find(clientId: number | undefined, id: number): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.findOne(id, clientId);
    if (!endpoint) throw new EndpointNotFoundException(clientId === undefined ? `No webhook endpoint with id ${id}.` : undefined);
    return endpoint;
  }

  /** HTTPS in production, no credentials in the URL, and a host that is and resolves to public addresses only. */
  private async checkUrl(raw: string): Promise<void> {
    const invalid = (message: string) => ValidationFailedException.forField('url', message);
    const url = URL.canParse(raw) ? new URL(raw) : undefined;
    if (!url || !['http:', 'https:'].includes(url.protocol)) throw invalid('url must be an absolute http or https URL');
    if (this.production && url.protocol !== 'https:') throw invalid('url must be https in production');
    if (url.username || url.password) throw invalid('url must not carry credentials');
    try {
      await checkTarget(url, this.resolver, this.allowPrivate);
    } catch {
      throw invalid(
        'url must reach a public address: its host is or resolves to a loopback, private, link-local or metadata address, or does not resolve',
      );
    }
  }

  /** The facts of an endpoint's change; never its secret, nor its URL's path or query, which may hold a token. */
  private record(change: ChangeContext, action: string, endpoint: WebhookEndpoint, facts: Record<string, unknown> = {}): Promise<void> {
    const details = { endpointId: Number(endpoint.id), host: new URL(endpoint.url).host, eventTypes: endpoint.eventTypes, ...facts };
    return this.audit.record(change, { action, clientId: Number(endpoint.clientId), details });
  }
}

/** `whsec_` and base64 of 32 random bytes: the Standard Webhooks form. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const unique = (values: readonly string[]) => [...new Set(values)];

function toEndpointView({ id, url, eventTypes, description, enabled, createdAt, disabledReason }: WebhookEndpoint) {
  return { id: Number(id), url, eventTypes, description, enabled, createdAt: createdAt.toISOString(), disabledReason };
}

/** Without the URL's path and query, which may hold the receiver's token, as the audit events. */
function toOperatorView(endpoint: WebhookEndpoint) {
  const { id, clientId, eventTypes, description, enabled, createdAt, disabledReason } = endpoint;
  const host = new URL(endpoint.url).host;
  return {
    id: Number(id),
    clientId: Number(clientId),
    host,
    eventTypes,
    description,
    enabled,
    createdAt: createdAt.toISOString(),
    disabledReason,
  };
}

function toAttemptView({ id, eventId, eventType, attempt, attemptedAt, statusCode, error, durationMs }: WebhookAttempt) {
  return { id: Number(id), eventId, eventType, attempt, attemptedAt: attemptedAt.toISOString(), status: statusCode, error, durationMs };
}
