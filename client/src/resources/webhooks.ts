import type {
  CreatedWebhookEndpoint,
  NewWebhookEndpoint,
  SecretRotation,
  WebhookAttempt,
  WebhookEndpoint,
  WebhookEndpointChange,
  WebhookEventSent,
} from '../contract.js';
import { paginate } from '../pagination.js';
import type { CreateOptions, RequestOptions } from '../request-options.js';
import type { Transport } from '../transport.js';

/** The client's webhook endpoints (a `webhooks:manage` key), their deliveries, tests and secrets (docs/webhooks.md). */
export class WebhookEndpoints {
  constructor(private readonly transport: Transport) {}

  /** The endpoints, at most 10, without their secrets. */
  list({ signal }: RequestOptions = {}): Promise<WebhookEndpoint[]> {
    return this.call<WebhookEndpoint[]>('listWebhookEndpoints', 'GET', '', { signal });
  }

  /** A new endpoint; its signing secret, `secret`, is in this answer only. */
  create(body: NewWebhookEndpoint, options: CreateOptions = {}): Promise<CreatedWebhookEndpoint> {
    return this.call<CreatedWebhookEndpoint>('createWebhookEndpoint', 'POST', '', { body, ...options });
  }

  get(endpointId: number, { signal }: RequestOptions = {}): Promise<WebhookEndpoint> {
    return this.call<WebhookEndpoint>('getWebhookEndpoint', 'GET', `/${endpointId}`, { signal });
  }

  /** Changes the fields given; `enabled: true` resumes an endpoint the service disabled. */
  update(endpointId: number, body: WebhookEndpointChange, { signal }: RequestOptions = {}): Promise<WebhookEndpoint> {
    return this.call<WebhookEndpoint>('updateWebhookEndpoint', 'PATCH', `/${endpointId}`, { body, signal });
  }

  delete(endpointId: number, { signal }: RequestOptions = {}): Promise<void> {
    return this.call<void>('deleteWebhookEndpoint', 'DELETE', `/${endpointId}`, { signal });
  }

  /** A new secret, shown in this answer only; deliveries carry both signatures for `overlapSeconds`. */
  rotateSecret(endpointId: number, body: SecretRotation = {}, options: CreateOptions = {}): Promise<CreatedWebhookEndpoint> {
    return this.call<CreatedWebhookEndpoint>('rotateWebhookSecret', 'POST', `/${endpointId}/rotate-secret`, { body, ...options });
  }

  /** Sends a `webhook.test` event to this endpoint alone; resolves with its id. */
  test(endpointId: number, { signal }: RequestOptions = {}): Promise<WebhookEventSent> {
    return this.call<WebhookEventSent>('testWebhookEndpoint', 'POST', `/${endpointId}/test`, { signal });
  }

  /** Every attempt at the endpoint, newest first, page after page as you iterate. */
  deliveries(endpointId: number, query: { limit?: number } = {}, { signal }: RequestOptions = {}): AsyncIterable<WebhookAttempt> {
    const url = this.transport.url(`/webhook-endpoints/${endpointId}/deliveries`, query);
    return paginate<WebhookAttempt>(this.transport, { operation: 'listWebhookDeliveries', method: 'GET', url, signal });
  }

  /** One more attempt at delivering the event to the endpoint, now. */
  redeliver(endpointId: number, eventId: string, { signal }: RequestOptions = {}): Promise<WebhookEventSent> {
    return this.call<WebhookEventSent>(
      'redeliverWebhookEvent',
      'POST',
      `/${endpointId}/deliveries/${encodeURIComponent(eventId)}/redeliver`,
      {
        signal,
      },
    );
  }

  private call<T>(
    operation: string,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    options: { body?: unknown } & CreateOptions,
  ): Promise<T> {
    return this.transport.request<T>({ operation, method, url: this.transport.url(`/webhook-endpoints${path}`), ...options });
  }
}
