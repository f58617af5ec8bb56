import type { Request } from 'express';

/** The HTTP listener a request arrived on: the public port, or the admin one (ADMIN_PORT). */
export type Listener = 'public' | 'admin';

const LISTENER = Symbol('listener');

type WithListener = Request & { [LISTENER]?: Listener };

/** Set once, by the first middleware that reads the request's socket. */
export function setListener(request: Request, listener: Listener): void {
  (request as WithListener)[LISTENER] = listener;
}

export function listenerOf(request: Request): Listener {
  return (request as WithListener)[LISTENER] ?? 'public';
}
