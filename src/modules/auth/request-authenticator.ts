import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ClsService } from 'nestjs-cls';
import type { Authentication, RequestContext } from '../../common/index.js';
import { ApiKeysService } from './api-keys.service.js';
import { bearerToken } from './bearer-token.js';

/** Who sent a request, once per request (its context keeps the answer): the rate limiter asks first, the guard after. */
@Injectable()
export class RequestAuthenticator {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly cls: ClsService<RequestContext>,
  ) {}

  identify(request: Request): Promise<Authentication> {
    let authentication = this.cls.get('authentication');
    if (!authentication) this.cls.set('authentication', (authentication = this.resolve(request)));
    return authentication;
  }

  /**
   * True when the request presents a well-formed key this service certainly never issued. Neither the rate
   * limiter nor the guard looks it up then, so guesses cost no lookup even while the limiter counts in process.
   */
  async presentsForeignKey(request: Request): Promise<boolean> {
    if (this.cls.get('authentication')) return false;
    const token = bearerToken(request.headers.authorization);
    if (token === undefined || !(await this.keys.isCertainlyForeign(token))) return false;
    this.cls.set('authentication', Promise.resolve({ kind: 'invalid' as const, expired: false }));
    return true;
  }

  private async resolve(request: Request): Promise<Authentication> {
    const token = bearerToken(request.headers.authorization);
    return token ? this.keys.authenticate(token) : { kind: 'missing' };
  }
}
