import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { principalOf, type Principal } from './principal.js';

/** The key and client calling: every route here is behind the API key guard, which sets it. */
export const Caller = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = principalOf(context.switchToHttp().getRequest<Request>());
  if (!principal) throw new Error('Caller is read only on routes the API key guard has authenticated');
  return principal;
});
