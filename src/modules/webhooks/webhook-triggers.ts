import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { Clock } from '../../common/index.js';
import { KEY_EVENTS, type ApiKeyView, type KeyChanged } from '../auth/index.js';
import { PLAN_CHANGED, type PlanChanged } from '../plans/index.js';
import { OutboxRepository } from './outbox.repository.js';
import { newEvent, type Audience, type WebhookEventType } from './webhook-event.js';

/** A listener's error fails the publisher's transaction: an event is written with its change, or neither is. */
const IN_TRANSACTION = { suppressErrors: false } as const;

/** What a key event tells: the key's public fields, never the key nor its hash. */
export const publicFields = ({ id, name, prefix, scopes, expiresAt }: ApiKeyView) => ({ id, name, prefix, scopes, expiresAt });

/**
 * Turns the other modules' changes into events in the outbox, in their transactions: wherever they are made, the
 * server or the command-line tool, which opens this module too. `pet.created` is the exception, read from `pets` by
 * the delivery worker (migration 1798416000000); the limiter's and the clock's are `WebhookWatch`'s.
 */
@Injectable()
export class WebhookTriggers {
  constructor(
    private readonly outbox: OutboxRepository,
    private readonly clock: Clock,
  ) {}

  @OnEvent(KEY_EVENTS.created, IN_TRANSACTION)
  async keyCreated({ clientId, key }: KeyChanged): Promise<void> {
    await this.write('key.created', { clientId }, publicFields(key));
  }

  @OnEvent(KEY_EVENTS.rolled, IN_TRANSACTION)
  async keyRolled({ clientId, key, successorId }: KeyChanged): Promise<void> {
    await this.write('key.rolled', { clientId }, { ...publicFields(key), successorId });
  }

  @OnEvent(KEY_EVENTS.revoked, IN_TRANSACTION)
  async keyRevoked({ clientId, key }: KeyChanged): Promise<void> {
    await this.write('key.revoked', { clientId }, publicFields(key));
  }

  @OnEvent(PLAN_CHANGED, IN_TRANSACTION)
  async planChanged({ clientId, from, to }: PlanChanged): Promise<void> {
    await this.write('plan.changed', { clientId }, { from, to });
  }

  private async write(type: WebhookEventType, audience: Audience, data: object): Promise<void> {
    await this.outbox.write(newEvent(type, audience, data, this.clock.now()));
  }
}
