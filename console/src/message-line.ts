import { h } from './dom.js';
import { inWords } from './errors.js';

/** A section's line for the outcome of its last action, next to it (on a phone, a message at the top is out of sight). */
export class MessageLine {
  readonly element = h('div', { class: 'message', 'aria-live': 'polite' });

  failed(what: string, error: unknown): void {
    this.element.replaceChildren(h('p', { role: 'alert', class: 'error' }, `${what}: ${inWords(error)}`));
  }

  done(text: string): void {
    this.element.replaceChildren(h('p', { class: 'done' }, text));
  }

  clear(): void {
    this.element.replaceChildren();
  }
}
