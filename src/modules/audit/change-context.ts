import { createParamDecorator } from '@nestjs/common';
import { requestContext } from '../../common/index.js';

/** Who makes a change: the operator's command-line tool, an admin token, or a client's own API key. */
export type Actor = { kind: 'cli' } | { kind: 'admin-token'; id: number } | { kind: 'key'; id: number };

/** Passed to every method that changes clients, plans, keys or admin tokens, and written into its audit event. */
export interface ChangeContext {
  actor: Actor;
  /** The HTTP request's `X-Request-Id`; none from the command-line tool. */
  requestId?: string;
}

/** How an actor is stored and shown: `cli`, `admin-token:<id>` or `key:<id>`. */
export function actorName(actor: Actor): string {
  return actor.kind === 'cli' ? 'cli' : `${actor.kind}:${actor.id}`;
}

/** Who makes the handler's change, for its audit event: the request's admin token or API key, and its request id. */
export const Change = createParamDecorator((): ChangeContext => {
  const { adminTokenId, principal, requestId } = requestContext().get();
  if (adminTokenId !== undefined) return { actor: { kind: 'admin-token', id: adminTokenId }, requestId };
  if (principal) return { actor: { kind: 'key', id: principal.keyId }, requestId };
  throw new Error('Change is read only on routes a guard has authenticated');
});
