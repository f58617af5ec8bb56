import type { Request } from 'express';

/** The route pattern that served a request, never the raw path (labels stay few); not Nest's catch-all `*path`. */
export function matchedRoute(request: Request): string | undefined {
  const path = (request.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' && !path.startsWith('*') ? path : undefined;
}
