import type { Usage } from '../../client/src/index.js';
import { Card, scrolling } from './card.js';
import { h, newId, table } from './dom.js';
import type { Session } from './session.js';
import { UsageChart } from './usage-chart.js';
import { dailySeries, keysWithUsage } from './usage-days.js';

const sum = (figures: number[]) => figures.reduce((total, figure) => total + figure, 0);

/** Requests admitted and refused per UTC day over the last 30 days (`GET /v1/usage`), for all keys or one, as a chart and a table. */
export class UsageCard extends Card {
  private usage?: Usage;
  private readonly chart = new UsageChart();
  private readonly select: HTMLSelectElement;
  private readonly figures = h('div');

  constructor(private readonly session: Session) {
    super('Usage');
    const id = newId('usage-key');
    this.select = h('select', { id, onchange: () => this.show() });
    this.body.append(
      h('div', { class: 'row' }, h('label', { for: id }, 'Requests of'), this.select),
      h('figure', {}, this.chart.element),
      this.figures,
    );
  }

  protected async load(): Promise<void> {
    try {
      this.usage = await this.session.client.usage();
      this.keysChanged();
    } catch (error) {
      this.message.failed('The usage could not be read', error);
    }
  }

  /** The key list changed (a key created, rolled or revoked): the choice of keys follows. */
  keysChanged(): void {
    if (!this.usage) return;
    const live = new Map(this.session.keys.map((key) => [key.id, `${key.name || 'unnamed'} (${key.prefix}…)`]));
    const ids = [...new Set([...live.keys(), ...keysWithUsage(this.usage)])].sort((a, b) => a - b);
    const chosen = this.select.value || 'all';
    this.select.replaceChildren(
      h('option', { value: 'all' }, 'All keys'),
      ...ids.map((id) => h('option', { value: id }, `Key ${id}: ${live.get(id) ?? 'revoked or expired'}`)),
    );
    this.select.value = [...this.select.options].some(({ value }) => value === chosen) ? chosen : 'all';
    this.show();
  }

  private show(): void {
    if (!this.usage) return;
    const keyId = this.select.value === 'all' ? undefined : Number(this.select.value);
    const series = dailySeries(this.usage, keyId);
    const of = keyId === undefined ? 'all keys' : `key ${keyId}`;
    const description = `Requests of ${of} per UTC day, ${this.usage.from} to ${this.usage.to}: ${sum(series.admitted).toLocaleString('en')} admitted, ${sum(series.refused).toLocaleString('en')} refused.`;
    this.chart.show(series, description);
    const rows = series.days.map((day, at) => [day, series.admitted[at], series.refused[at]]);
    this.figures.replaceChildren(
      h('p', {}, description),
      scrolling('Requests per day', table(`Requests of ${of} per UTC day`, ['Day (UTC)', 'Admitted', 'Refused'], rows)),
    );
  }
}
