import { h, newId } from './dom.js';

/** A secret the API returns once (a new key, a signing secret), with a copy button, until the developer dismisses it. */
export function shownOnce(label: string, secret: string): HTMLElement {
  const id = newId('secret');
  const field = h('input', { id, readonly: true, value: secret, class: 'secret', spellcheck: 'false', autocomplete: 'off' });
  const status = h('p', { role: 'status', class: 'done' });
  const copy = () =>
    navigator.clipboard.writeText(secret).then(
      () => (status.textContent = 'Copied to the clipboard.'),
      () => {
        // Clipboard permission refused: leave the text selected for Ctrl+C.
        field.select();
        status.textContent = 'Selected: copy it with Ctrl+C.';
      },
    );
  const panel = h(
    'div',
    { class: 'shown-once' },
    h('label', { for: id }, label),
    h('p', {}, 'Copy it now: it is shown this once, and the service cannot show it again.'),
    h('div', { class: 'row' }, field, h('button', { type: 'button', onclick: () => void copy() }, 'Copy')),
    status,
    h('button', { type: 'button', onclick: () => panel.remove() }, 'I have stored it'),
  );
  return panel;
}
