import { PetsClient, type ApiKey, type Scope } from '../../client/src/index.js';

/** The signed-in developer: the client library holding the key, in this page's memory only. */
export interface Session {
  client: PetsClient;
  /** The key signed in with, as the API lists it (never its secret). */
  key: ApiKey;
  /** The live keys, as last listed. */
  keys: ApiKey[];
  can: (scope: Scope) => boolean;
}

/** Signs in with `apiKey`: listing the keys needs `keys:manage`, so a key without it is refused here, with the API's words. */
export async function signIn(apiKey: string): Promise<Session> {
  // No retry and no wait behind the scenes: a person is waiting, and a refusal says when to try again.
  const client = new PetsClient({ apiKey, baseUrl: `${location.origin}/v1`, maxRetries: 0, maxRetryDelayMs: 1_000 });
  const keys = await client.keys.list();
  const key = keys.find(({ prefix }) => apiKey.startsWith(prefix));
  if (!key) throw new Error('The key signed in with is not among the live keys it lists.');
  return { client, key, keys, can: (scope) => key.scopes.includes(scope) };
}
