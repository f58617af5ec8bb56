import type { QuotaWindow } from '../../client/src/index.js';
import { Card, scrolling } from './card.js';
import { h, table } from './dom.js';
import { utcInstant, waitOf } from './format.js';
import type { Session } from './session.js';

const row = (name: string, window: QuotaWindow, now: Date) => [
  name,
  window.limit - window.remaining,
  window.limit,
  window.remaining,
  `${utcInstant(new Date(window.reset * 1000), now)} (in ${waitOf(window.reset - now.getTime() / 1000)})`,
];

/** The plan and both windows now (`GET /v1/rate_limit`, which the quota does not count). */
export class QuotaCard extends Card {
  constructor(private readonly session: Session) {
    super('Quota');
  }

  protected async load(): Promise<void> {
    try {
      const status = await this.session.client.rateLimit();
      const now = new Date();
      this.body.replaceChildren(
        h('p', {}, 'Plan: ', h('strong', { class: 'plan' }, status.plan)),
        scrolling(
          'Quota windows',
          table(
            'Requests per window',
            ['Window', 'Used', 'Limit', 'Remaining', 'Resets'],
            [row('This minute', status.minute, now), row('Today (UTC)', status.day, now)],
          ),
        ),
      );
    } catch (error) {
      this.message.failed('The quota could not be read', error);
    }
  }
}
