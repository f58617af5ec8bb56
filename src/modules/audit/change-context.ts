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
