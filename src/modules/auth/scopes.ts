/** What a key may do (docs/contract/decisions.md, "Keys in the client's hands"). Data, not scattered literals. */
export const SCOPES = ['pets:read', 'pets:write', 'keys:manage'] as const;

export type Scope = (typeof SCOPES)[number];

/** The scopes of a key created without any, and of every key from before scopes existed. */
export const DEFAULT_SCOPES: readonly Scope[] = ['pets:read', 'pets:write'];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Each scope once, in catalogue order: equal sets are stored and shown alike. */
export function normalizeScopes(scopes: readonly Scope[]): Scope[] {
  return SCOPES.filter((scope) => scopes.includes(scope));
}

/** The column's form: space-separated like an OAuth scope string (RFC 6749); a name this release does not know is skipped. */
export const scopeString = {
  to: (scopes: readonly Scope[]): string => scopes.join(' '),
  from: (stored: string): Scope[] => stored.split(' ').filter(isScope),
};
