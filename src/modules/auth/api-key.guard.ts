import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { InsufficientScopeException, InvalidApiKeyException, MissingApiKeyException } from './auth.exceptions.js';
import { ClsService } from 'nestjs-cls';
import { IS_PUBLIC, type RequestContext } from '../../common/index.js';
import { RequestAuthenticator } from './request-authenticator.js';
import { REQUIRED_SCOPE } from './scopes.js';

/** Global: a live key with the `@RequiredScope()` on every route not `@Public()`; the limiter has counted the request already, a 403 too. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: RequestAuthenticator,
    private readonly cls: ClsService<RequestContext>,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const request = context.switchToHttp().getRequest<Request>();
    const identity = await this.authenticator.identify(request);
    if (identity.kind === 'missing') throw new MissingApiKeyException();
    if (identity.kind === 'invalid') throw new InvalidApiKeyException(identity.expired);
    this.cls.set('principal', identity.principal);
    const scope = this.reflector.getAllAndOverride<string | undefined>(REQUIRED_SCOPE, targets);
    if (scope !== undefined && !identity.principal.scopes.includes(scope)) throw new InsufficientScopeException(scope);
    return true;
  }
}
