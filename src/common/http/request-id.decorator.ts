import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { requestIdOf } from './request-id.middleware.js';

/** The request's `X-Request-Id`, for a handler to pass on explicitly (into an audit event, say). */
export const RequestId = createParamDecorator((_data: unknown, context: ExecutionContext): string | undefined =>
  requestIdOf(context.switchToHttp().getRequest<Request>()),
);
