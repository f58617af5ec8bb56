import { randomBytes } from 'node:crypto';

/** The event types a client may subscribe to (docs/contract/decisions.md, "Events and webhooks"); never renamed once published. */
export const SUBSCRIBABLE_EVENT_TYPES = [
  'pet.created',
  'key.created',
  'key.rolled',
  'key.revoked',
  'key.expiring',
  'quota.threshold_reached',
  'plan.changed',
] as const;

/** `webhook.test` goes to one endpoint, on request, whatever it subscribes to. */
export type WebhookEventType = (typeof SUBSCRIBABLE_EVENT_TYPES)[number] | 'webhook.test';

/** Who receives an event: a client's subscribed endpoints, or one endpoint (every client's, for `pet.created`: its trigger). */
export type Audience = { clientId: number } | { endpointId: number };

/** An event as it is written to the outbox: its body is final, so every attempt sends the same bytes. */
export interface OutboxEvent {
  id: string;
  type: WebhookEventType;
  audience: Audience;
  body: string;
  /** Set for an event that happens once (a day's quota threshold, a key's expiry notice): a second one is not written. */
  onceKey?: string;
}

export function newEvent(type: WebhookEventType, audience: Audience, data: object, createdAt: Date, onceKey?: string): OutboxEvent {
  const id = `evt_${randomBytes(16).toString('base64url')}`;
  const body = JSON.stringify({ id, type, createdAt: createdAt.toISOString(), data });
  return { id, type, audience, body, onceKey };
}
