import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ClsService } from 'nestjs-cls';
import type { RequestContext } from '../../common/index.js';
import { bearerToken } from '../auth/index.js';
import { RateLimiterService, RateLimitExceededException } from '../../policies/rate-limit/index.js';
import { InvalidAdminTokenException, MissingAdminTokenException } from './admin.exceptions.js';
import { AdminTokensService } from './admin-tokens.service.js';

/** Where the limiter counts admin callers without a valid token: apart from the public port's addresses. */
const REALM = 'admin-ip';

/**
 * Before any `/admin/v1` body is read: a live admin token passes; anything else is 401, and 429 once its address has failed
 * as often as the public port lets a caller without a valid key. A refused address has unfamiliar tokens looked up at a trickle.
 */
@Injectable()
export class AdminAuthentication {
  constructor(
    private readonly tokens: AdminTokensService,
    private readonly limiter: RateLimiterService,
    private readonly cls: ClsService<RequestContext>,
  ) {}

  async use(request: Request, _response: Response, next: NextFunction): Promise<void> {
    // The socket's own address: nothing proxies the admin port, so X-Forwarded-For is not believed.
    const address = request.socket.remoteAddress;
    const token = bearerToken(request.headers.authorization);
    if (token !== undefined && (!this.tokens.wouldLookUpUnfamiliar(token) || this.limiter.mayLookUpUnfamiliar(REALM, address))) {
      const tokenId = await this.tokens.authenticate(token);
      if (tokenId !== undefined) {
        this.cls.set('adminTokenId', tokenId);
        return next();
      }
    }
    const decision = await this.limiter.checkUnauthenticated(REALM, address);
    if (decision.retryAfterSeconds !== undefined) throw new RateLimitExceededException(decision.retryAfterSeconds);
    throw token === undefined ? new MissingAdminTokenException() : new InvalidAdminTokenException();
  }
}
