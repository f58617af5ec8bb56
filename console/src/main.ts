import 'uplot/dist/uPlot.min.css';
import './console.css';
import { consolePage } from './console-page.js';
import type { Session } from './session.js';
import { signInSection } from './sign-in.js';

const main = document.getElementById('main')!;
const who = document.getElementById('session')!;

// Signing out drops the session, and with it the only reference to the key.
function showSignIn(): void {
  who.replaceChildren();
  main.replaceChildren(signInSection(showConsole));
  main.querySelector('input')?.focus();
}

function showConsole(session: Session): void {
  const { header, cards } = consolePage(session, showSignIn);
  who.replaceChildren(header);
  main.replaceChildren(...cards);
  main.querySelector('h2')?.setAttribute('tabindex', '-1');
  main.querySelector<HTMLElement>('h2')?.focus();
}

showSignIn();
