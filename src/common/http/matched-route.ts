import type { Request } from 'express';

/**
 * The route pattern that served a request (`/v1/pets/:petId`), or undefined when none matched:
 * Nest answers unmatched paths through a catch-all route (`*path`), which is not a route of ours.
 * A pattern, never the raw path, so metric labels and log fields stay few.
 */
export function matchedRoute(request: Request): string | undefined {
  const path = (request.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' && !path.startsWith('*') ? path : undefined;
}
