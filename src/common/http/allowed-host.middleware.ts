import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ValidationFailedException } from '../errors/api.exception.js';

/**
 * With `ALLOWED_HOSTS` set, a request naming another host (in `Host`, or in `X-Forwarded-Host`
 * when `TRUST_PROXY` trusts it) is refused with 400 `validation_failed`, so no `Link` or
 * `Location` is ever built from a host name a client made up (docs/contract/decisions.md, "Host names in
 * links"). An empty list lets every host through.
 */
export function allowedHostMiddleware(allowedHosts: readonly string[]): RequestHandler {
  const allowed = new Set(allowedHosts);
  return (request: Request, _response: Response, next: NextFunction) => {
    if (allowed.size > 0 && !allowed.has(request.hostname?.toLowerCase() ?? '')) {
      throw ValidationFailedException.forField('Host', 'names a host this service does not answer for (see ALLOWED_HOSTS).');
    }
    next();
  };
}
