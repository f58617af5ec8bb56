import { h, newId } from './dom.js';
import { MessageLine } from './message-line.js';

/** A section of the console: its heading, a Refresh button, the line for its messages and its content. */
export abstract class Card {
  readonly message = new MessageLine();
  readonly body = h('div', { class: 'body' });
  readonly element: HTMLElement;

  constructor(title: string) {
    const id = newId('card');
    this.element = h(
      'section',
      { class: 'card', 'aria-labelledby': id },
      h(
        'div',
        { class: 'card-head' },
        h('h2', { id }, title),
        h('button', { type: 'button', onclick: () => void this.refresh() }, `Refresh ${title.toLowerCase()}`),
      ),
      this.message.element,
      this.body,
    );
  }

  /** Reads the section's figures again; the outcome of the last action goes. */
  async refresh(): Promise<void> {
    this.message.clear();
    await this.load();
  }

  /** Reads the section's figures from the API and shows them, or says why it could not. */
  protected abstract load(): Promise<void>;
}

/** A wide table in a region of its own that scrolls sideways on a narrow screen (focusable, so the keyboard scrolls it too). */
export const scrolling = (label: string, content: HTMLElement): HTMLElement =>
  h('div', { class: 'scroll', role: 'region', 'aria-label': label, tabindex: 0 }, content);
