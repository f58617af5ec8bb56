import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ValidationFailedException } from '../errors/api.exception.js';

/** Refuses a host not in `ALLOWED_HOSTS` (when set), so no link is built from a host name a client made up (docs/contract/decisions.md). */
export function allowedHostMiddleware(allowedHosts: readonly string[]): RequestHandler {
  const allowed = new Set(allowedHosts);
  return (request: Request, _response: Response, next: NextFunction) => {
    if (allowed.size > 0 && !allowed.has(request.hostname?.toLowerCase() ?? '')) {
      throw ValidationFailedException.forField('Host', 'names a host this service does not answer for (see ALLOWED_HOSTS).');
    }
    next();
  };
}
