import type { ApiKey, CreatedApiKey, NewApiKey, RollApiKey } from '../contract.js';
import type { CreateOptions, RequestOptions } from '../request-options.js';
import type { Transport } from '../transport.js';

/** The client's own API keys (a `keys:manage` key): `listKeys`, `createKey`, `rollKey`, `revokeKey`. */
export class Keys {
  constructor(private readonly transport: Transport) {}

  /** The live keys (neither revoked nor expired), without their secrets. */
  list({ signal }: RequestOptions = {}): Promise<ApiKey[]> {
    return this.transport.request<ApiKey[]>({ operation: 'listKeys', method: 'GET', url: this.transport.url('/keys'), signal });
  }

  /** A new key; its secret, `key`, is in this answer only. */
  create(body: NewApiKey, options: CreateOptions = {}): Promise<CreatedApiKey> {
    return this.transport.request<CreatedApiKey>({
      operation: 'createKey',
      method: 'POST',
      url: this.transport.url('/keys'),
      body,
      ...options,
    });
  }

  /** A successor with the same name and scopes; the old key keeps working for `overlapSeconds`. */
  roll(keyId: number, body: RollApiKey = {}, options: CreateOptions = {}): Promise<CreatedApiKey> {
    const url = this.transport.url(`/keys/${keyId}/roll`);
    return this.transport.request<CreatedApiKey>({ operation: 'rollKey', method: 'POST', url, body, ...options });
  }

  /** Revokes the key everywhere within 5 seconds. */
  revoke(keyId: number, { signal }: RequestOptions = {}): Promise<void> {
    return this.transport.request<void>({ operation: 'revokeKey', method: 'DELETE', url: this.transport.url(`/keys/${keyId}`), signal });
  }
}
