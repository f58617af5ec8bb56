import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { InvalidApiKeyException, MissingApiKeyException } from './auth.exceptions.js';
import { IS_PUBLIC, setPrincipal } from '../../common/index.js';
import { RequestAuthenticator } from './request-authenticator.js';

/** Global guard: every route needs a live API key unless it is marked `@Public()`. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: RequestAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<Request>();
    const identity = await this.authenticator.identify(request);
    if (identity.kind === 'missing') throw new MissingApiKeyException();
    if (identity.kind === 'invalid') throw new InvalidApiKeyException();
    setPrincipal(request, identity.principal);
    return true;
  }
}
