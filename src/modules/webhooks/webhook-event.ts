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

/** Who receives an event: a client's subscribed endpoints, or one endpoint (every client's, for `pet.created`: see the outbox). */
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

/**
 * `evt_`, the microseconds since the epoch and 8 random bytes, in hex: ids grow with time, so the outbox's
 * index takes each at its end (docs/benchmarks.md), and none can be guessed. `pet.created`'s are made the same way in SQL.
 */
export const eventId = (at: Date) =>
  `evt_${(BigInt(at.getTime()) * 1000n).toString(16).padStart(16, '0')}${randomBytes(8).toString('hex')}`;

export function newEvent(type: WebhookEventType, audience: Audience, data: object, createdAt: Date, onceKey?: string): OutboxEvent {
  const id = eventId(createdAt);
  const body = JSON.stringify({ id, type, createdAt: createdAt.toISOString(), data });
  return { id, type, audience, body, onceKey };
}
