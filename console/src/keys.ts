import type { ApiKey, Scope } from '../../client/src/index.js';
import { Card, scrolling } from './card.js';
import { confirmWith } from './confirm.js';
import { checkbox, h, newId, table, textOf } from './dom.js';
import { dateTime } from './format.js';
import type { Session } from './session.js';
import { shownOnce } from './shown-once.js';

const OVERLAPS: Array<[seconds: number, words: string]> = [
  [0, 'none: it stops now'],
  [300, '5 minutes'],
  [3600, '1 hour'],
  [86_400, '1 day'],
];
const nameOf = (key: ApiKey) => `${key.name || 'unnamed'} (${key.prefix}…)`;

/** The live keys (`/v1/keys`): create one with scopes, roll one with an overlap, revoke one after a confirmation. */
export class KeysCard extends Card {
  private readonly list = h('div');
  private readonly secret = h('div');

  constructor(
    private readonly session: Session,
    private readonly keysChanged: () => void,
  ) {
    super('Keys');
    this.body.append(this.secret, this.list, this.createForm());
  }

  protected async load(): Promise<void> {
    try {
      this.session.keys = await this.session.client.keys.list();
      this.keysChanged();
    } catch (error) {
      this.message.failed('The keys could not be listed', error);
    }
    const rows = this.session.keys.map((key) => [
      key.name || 'unnamed',
      `${key.prefix}…${key.id === this.session.key.id ? ' (this session’s)' : ''}`,
      key.scopes.join(' '),
      dateTime(key.createdAt),
      dateTime(key.expiresAt),
      dateTime(key.lastUsedAt),
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'button', 'aria-label': `Roll ${nameOf(key)}`, onclick: () => void this.roll(key) }, 'Roll'),
        h(
          'button',
          { type: 'button', class: 'danger', 'aria-label': `Revoke ${nameOf(key)}`, onclick: () => void this.revoke(key) },
          'Revoke',
        ),
      ),
    ]);
    this.list.replaceChildren(
      scrolling('Live keys', table('Live keys', ['Name', 'Prefix', 'Scopes', 'Created', 'Expires', 'Last used', 'Actions'], rows)),
    );
  }

  private createForm(): HTMLFormElement {
    const nameId = newId('key-name');
    // A key can only give the scopes it has itself.
    const scopes = this.session.key.scopes.map((scope) => checkbox('scope', scope, scope, scope === 'pets:read'));
    const form = h(
      'form',
      { class: 'create', onsubmit: (event) => void this.create(event, form) },
      h('h3', {}, 'Create a key'),
      h('label', { for: nameId }, 'Name'),
      h('input', { id: nameId, name: 'name', required: true, maxlength: 100, autocomplete: 'off' }),
      h('fieldset', {}, h('legend', {}, 'Scopes'), ...scopes),
      h('button', { type: 'submit' }, 'Create key'),
    );
    return form;
  }

  private async create(event: Event, form: HTMLFormElement): Promise<void> {
    event.preventDefault();
    const values = new FormData(form);
    const scopes = values.getAll('scope') as Scope[];
    try {
      const created = await this.session.client.keys.create({ name: textOf(values, 'name'), ...(scopes.length > 0 && { scopes }) });
      form.reset();
      await this.changed(`Key ${nameOf(created)} created.`, shownOnce(`The new key ${nameOf(created)}`, created.key));
    } catch (error) {
      this.message.failed('The key could not be created', error);
    }
  }

  private async roll(key: ApiKey): Promise<void> {
    const id = newId('overlap');
    const overlap = h(
      'select',
      { id, name: 'overlap' },
      ...OVERLAPS.map(([seconds, words]) => h('option', { value: seconds, selected: seconds === 3600 }, words)),
    );
    const answer = await confirmWith(
      `Roll ${nameOf(key)}`,
      [
        h('p', {}, 'A successor with the same name and scopes is made. The old key keeps working for:'),
        h('label', { for: id }, 'Overlap'),
        overlap,
      ],
      'Roll key',
    );
    if (!answer) return;
    try {
      const successor = await this.session.client.keys.roll(key.id, { overlapSeconds: Number(textOf(answer, 'overlap')) });
      await this.changed(
        `Key ${nameOf(key)} rolled into ${nameOf(successor)}.`,
        shownOnce(`The successor ${nameOf(successor)}`, successor.key),
      );
    } catch (error) {
      this.message.failed('The key could not be rolled', error);
    }
  }

  private async revoke(key: ApiKey): Promise<void> {
    const own = key.id === this.session.key.id ? ' It is the key this console is signed in with: the console stops working with it.' : '';
    const answer = await confirmWith(
      `Revoke ${nameOf(key)}?`,
      [h('p', {}, `Requests with it are refused within 5 seconds, and this cannot be undone.${own}`)],
      'Revoke key',
    );
    if (!answer) return;
    try {
      await this.session.client.keys.revoke(key.id);
      await this.changed(`Key ${nameOf(key)} revoked.`);
    } catch (error) {
      this.message.failed('The key could not be revoked', error);
    }
  }

  private async changed(words: string, secret?: HTMLElement): Promise<void> {
    await this.refresh();
    this.secret.replaceChildren(...(secret ? [secret] : []));
    this.message.done(words);
  }
}
