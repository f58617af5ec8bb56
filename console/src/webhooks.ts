import type { WebhookAttempt, WebhookEndpoint, WebhookEventType } from '../../client/src/index.js';
import { Card, scrolling } from './card.js';
import { checkbox, h, newId, table, textOf } from './dom.js';
import { dateTime } from './format.js';
import type { Session } from './session.js';
import { shownOnce } from './shown-once.js';

// Every type the contract names, and no other: the compiler holds this list to the client library's types.
const EVENT_TYPES: Record<WebhookEventType, string> = {
  'pet.created': 'an animal was added',
  'key.created': 'a key was created',
  'key.rolled': 'a key was rolled',
  'key.revoked': 'a key was revoked',
  'key.expiring': 'a key expires soon',
  'quota.threshold_reached': 'the day quota is nearly used',
  'plan.changed': 'the plan changed',
};
const RECENT_DELIVERIES = 20;
const outcome = (attempt: WebhookAttempt) =>
  attempt.status === null ? `no answer: ${attempt.error ?? 'unknown'}` : `HTTP ${attempt.status}`;

/** The webhook endpoints (`/v1/webhook-endpoints`, a `webhooks:manage` key): create, test, recent deliveries, redeliver. */
export class WebhooksCard extends Card {
  private readonly list = h('div');
  private readonly secret = h('div');
  private readonly deliveries = h('div');
  private shown?: WebhookEndpoint;

  constructor(private readonly session: Session) {
    super('Webhooks');
    this.body.append(this.secret, this.list, this.deliveries, this.createForm());
  }

  protected async load(): Promise<void> {
    try {
      const endpoints = await this.session.client.webhookEndpoints.list();
      const rows = endpoints.map((endpoint) => [
        endpoint.url,
        endpoint.eventTypes.join(' '),
        endpoint.enabled ? 'enabled' : `disabled: ${endpoint.disabledReason ?? 'by its client'}`,
        h(
          'div',
          { class: 'actions' },
          h(
            'button',
            { type: 'button', 'aria-label': `Send test to ${endpoint.url}`, onclick: () => void this.test(endpoint) },
            'Send test',
          ),
          h(
            'button',
            { type: 'button', 'aria-label': `Deliveries to ${endpoint.url}`, onclick: () => void this.showDeliveries(endpoint) },
            'Deliveries',
          ),
        ),
      ]);
      this.list.replaceChildren(scrolling('Webhook endpoints', table('Webhook endpoints', ['URL', 'Events', 'State', 'Actions'], rows)));
      if (this.shown) await this.showDeliveries(this.shown);
    } catch (error) {
      this.message.failed('The webhook endpoints could not be listed', error);
    }
  }

  private createForm(): HTMLFormElement {
    const [urlId, descriptionId] = [newId('endpoint-url'), newId('endpoint-description')];
    const events = Object.entries(EVENT_TYPES).map(([type, words]) => checkbox('event', type, `${type}: ${words}`, type === 'pet.created'));
    const form = h(
      'form',
      { class: 'create', onsubmit: (event) => void this.create(event, form) },
      h('h3', {}, 'Add an endpoint'),
      h('label', { for: urlId }, 'URL'),
      h('input', { id: urlId, name: 'url', type: 'url', required: true, placeholder: 'https://example.com/hooks' }),
      h('fieldset', {}, h('legend', {}, 'Events'), ...events),
      h('label', { for: descriptionId }, 'Description (optional)'),
      h('input', { id: descriptionId, name: 'description', maxlength: 200 }),
      h('button', { type: 'submit' }, 'Add endpoint'),
    );
    return form;
  }

  private async create(event: Event, form: HTMLFormElement): Promise<void> {
    event.preventDefault();
    const values = new FormData(form);
    const description = textOf(values, 'description');
    try {
      const created = await this.session.client.webhookEndpoints.create({
        url: textOf(values, 'url'),
        eventTypes: values.getAll('event') as WebhookEventType[],
        ...(description && { description }),
      });
      form.reset();
      await this.refresh();
      this.secret.replaceChildren(shownOnce(`The signing secret of ${created.url}`, created.secret));
      this.message.done(`Endpoint ${created.url} added.`);
    } catch (error) {
      this.message.failed('The endpoint could not be added', error);
    }
  }

  private async test(endpoint: WebhookEndpoint): Promise<void> {
    try {
      const { eventId } = await this.session.client.webhookEndpoints.test(endpoint.id);
      await this.showDeliveries(endpoint);
      this.message.done(`Test event ${eventId} sent to ${endpoint.url}: its delivery shows below (Refresh webhooks to see it arrive).`);
    } catch (error) {
      this.message.failed('The test could not be sent', error);
    }
  }

  private async showDeliveries(endpoint: WebhookEndpoint): Promise<void> {
    try {
      const attempts: WebhookAttempt[] = [];
      for await (const attempt of this.session.client.webhookEndpoints.deliveries(endpoint.id, { limit: RECENT_DELIVERIES })) {
        if (attempts.push(attempt) === RECENT_DELIVERIES) break;
      }
      this.shown = endpoint;
      const rows = attempts.map((attempt) => [
        dateTime(attempt.attemptedAt),
        attempt.eventType,
        attempt.eventId,
        attempt.attempt,
        outcome(attempt),
        `${attempt.durationMs} ms`,
        h(
          'button',
          { type: 'button', 'aria-label': `Redeliver ${attempt.eventId}`, onclick: () => void this.redeliver(endpoint, attempt.eventId) },
          'Redeliver',
        ),
      ]);
      const caption = `Recent deliveries to ${endpoint.url}`;
      this.deliveries.replaceChildren(
        rows.length === 0
          ? h('p', {}, `No delivery to ${endpoint.url} yet.`)
          : scrolling(caption, table(caption, ['When', 'Event', 'Event id', 'Attempt', 'Result', 'Took', 'Actions'], rows)),
      );
    } catch (error) {
      this.message.failed('The deliveries could not be read', error);
    }
  }

  private async redeliver(endpoint: WebhookEndpoint, eventId: string): Promise<void> {
    try {
      await this.session.client.webhookEndpoints.redeliver(endpoint.id, eventId);
      await this.showDeliveries(endpoint);
      this.message.done(`Event ${eventId} is on its way to ${endpoint.url} again.`);
    } catch (error) {
      this.message.failed('The event could not be redelivered', error);
    }
  }
}
