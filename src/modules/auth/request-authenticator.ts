import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiKeysService } from './api-keys.service.js';
import { bearerToken } from './bearer-token.js';
import type { Principal } from '../../common/index.js';

/** `expired` only for a key that was real: its holder may learn why, a guesser learns nothing. */
export type Identity = { kind: 'missing' } | { kind: 'invalid'; expired: boolean } | { kind: 'valid'; principal: Principal };

/** Who sent a request, once per request: the rate limiter (first) and the guard both ask. */
@Injectable()
export class RequestAuthenticator {
  private readonly identities = new WeakMap<Request, Promise<Identity>>();

  constructor(private readonly keys: ApiKeysService) {}

  identify(request: Request): Promise<Identity> {
    if (!this.identities.has(request)) this.identities.set(request, this.resolve(request));
    return this.identities.get(request)!;
  }

  /** True when the request presents a well-formed key this service certainly never issued: the rate limiter need not look it up. */
  async presentsForeignKey(request: Request): Promise<boolean> {
    if (this.identities.has(request)) return false;
    const token = bearerToken(request.headers.authorization);
    return token !== undefined && (await this.keys.isCertainlyForeign(token));
  }

  private async resolve(request: Request): Promise<Identity> {
    const token = bearerToken(request.headers.authorization);
    if (!token) return { kind: 'missing' };
    const outcome = await this.keys.authenticate(token);
    if (outcome === undefined || outcome === 'expired') return { kind: 'invalid', expired: outcome === 'expired' };
    return { kind: 'valid', principal: outcome };
  }
}
