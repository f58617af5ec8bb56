import { AuthenticationError, PermissionDeniedError } from '../../client/src/index.js';
import { h, newId } from './dom.js';
import { MessageLine } from './message-line.js';
import { signIn, type Session } from './session.js';

const REFUSED = 'This key was refused';
const CANNOT_MANAGE = 'This key cannot sign in: the console needs a key with the keys:manage scope';

/** The sign-in form. The key goes to the client library and nowhere else: no storage, no cookie, no URL. */
export function signInSection(onSignedIn: (session: Session) => void): HTMLElement {
  const id = newId('key');
  const input = h('input', { id, type: 'password', name: 'key', required: true, autocomplete: 'off', spellcheck: 'false' });
  const message = new MessageLine();
  const submit = async (event: Event) => {
    event.preventDefault();
    message.clear();
    try {
      onSignedIn(await signIn(input.value.trim()));
    } catch (error) {
      message.failed(
        error instanceof AuthenticationError ? REFUSED : error instanceof PermissionDeniedError ? CANNOT_MANAGE : 'Sign-in failed',
        error,
      );
      input.focus();
    }
  };
  return h(
    'section',
    { class: 'card sign-in', 'aria-labelledby': `${id}-title` },
    h('h2', { id: `${id}-title` }, 'Sign in'),
    h('p', {}, 'Paste an API key with the keys:manage scope. It stays in this page’s memory: a reload asks for it again.'),
    h(
      'form',
      { onsubmit: (event) => void submit(event) },
      h('label', { for: id }, 'API key'),
      h('div', { class: 'row' }, input, h('button', { type: 'submit' }, 'Sign in')),
    ),
    message.element,
  );
}
