import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiKeysService } from './api-keys.service.js';
import { bearerToken } from './bearer-token.js';
import type { Principal } from '../../common/index.js';

export type Identity = { kind: 'missing' } | { kind: 'invalid' } | { kind: 'valid'; principal: Principal };

/**
 * Works out who sent a request, once per request: the rate limiter (which runs first) and the
 * guard both ask, and the second answer comes from the first, not from another lookup.
 */
@Injectable()
export class RequestAuthenticator {
  private readonly identities = new WeakMap<Request, Promise<Identity>>();

  constructor(private readonly keys: ApiKeysService) {}

  identify(request: Request): Promise<Identity> {
    let identity = this.identities.get(request);
    if (!identity) {
      identity = this.resolve(request);
      this.identities.set(request, identity);
    }
    return identity;
  }

  /**
   * True when identifying this request would ask the database about a key this replica does not
   * know (not cached, not verified lately): the rate limiter lets such lookups through only
   * while the caller's address has quota left.
   */
  wouldLookUpUnfamiliarKey(request: Request): boolean {
    if (this.identities.has(request)) return false;
    const token = bearerToken(request.headers.authorization);
    return token !== undefined && this.keys.wouldLookUpUnfamiliar(token);
  }

  private async resolve(request: Request): Promise<Identity> {
    const token = bearerToken(request.headers.authorization);
    if (!token) return { kind: 'missing' };
    const principal = await this.keys.authenticate(token);
    return principal ? { kind: 'valid', principal } : { kind: 'invalid' };
  }
}
