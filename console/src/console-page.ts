import type { Card } from './card.js';
import { h } from './dom.js';
import { KeysCard } from './keys.js';
import { QuotaCard } from './quota.js';
import type { Session } from './session.js';
import { UsageCard } from './usage.js';
import { WebhooksCard } from './webhooks.js';

/** The signed-in page: quota, usage, keys, and the webhooks when the key may manage them. */
export function consolePage(session: Session, signOut: () => void): { header: HTMLElement; cards: HTMLElement[] } {
  const usage = new UsageCard(session);
  const cards: Card[] = [new QuotaCard(session), usage, new KeysCard(session, () => usage.keysChanged())];
  if (session.can('webhooks:manage')) cards.push(new WebhooksCard(session));
  for (const card of cards) void card.refresh();
  const header = h(
    'div',
    { class: 'who' },
    h('span', {}, `Signed in with ${session.key.name || 'a key'} (${session.key.prefix}…)`),
    h('button', { type: 'button', onclick: signOut }, 'Sign out'),
  );
  return { header, cards: cards.map(({ element }) => element) };
}
