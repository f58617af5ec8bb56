import { h } from './dom.js';

/**
 * Asks before a change: a modal <dialog>, which keeps the focus inside, closes on Escape and gives the focus back to
 * the button that opened it. Resolves with the form's values on confirmation, or undefined.
 */
export function confirmWith(title: string, body: Array<Node | string>, action: string): Promise<FormData | undefined> {
  const confirm = h('button', { type: 'submit', value: 'confirm', class: 'danger' }, action);
  const form = h(
    'form',
    { method: 'dialog' },
    ...body,
    h('div', { class: 'actions' }, h('button', { type: 'submit', value: 'cancel' }, 'Cancel'), confirm),
  );
  const dialog = h('dialog', { 'aria-label': title }, h('h2', {}, title), form);
  document.body.append(dialog);
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      const values = dialog.returnValue === 'confirm' ? new FormData(form) : undefined;
      dialog.remove();
      resolve(values);
    });
  });
}
