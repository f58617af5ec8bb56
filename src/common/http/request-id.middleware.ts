import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:/+=-]{1,128}$/;
const REQUEST_ID = Symbol('requestId');

type WithRequestId = Request & { [REQUEST_ID]?: string };

/** Keeps the caller's `X-Request-Id` when it is sane, else makes one; every response echoes it. */
export function requestIdMiddleware(request: Request, response: Response, next: NextFunction): void {
  const offered = request.get('x-request-id');
  const id = offered && SANE_REQUEST_ID.test(offered) ? offered : randomUUID();
  (request as WithRequestId)[REQUEST_ID] = id;
  response.setHeader('X-Request-Id', id);
  next();
}

export function requestIdOf(request: Request): string | undefined {
  return (request as WithRequestId)[REQUEST_ID];
}
