import { METHODS } from 'node:http';
import type { Application } from 'express';

type RouteLayer = { route?: { path: unknown; methods: Record<string, boolean> }; match(path: string): boolean };

function routesOn(app: Application, path: string): Array<{ pattern: unknown; methods: string[] }> {
  const routes = [];
  for (const layer of (app as unknown as { router?: { stack: RouteLayer[] } }).router?.stack ?? []) {
    if (!layer.route || !layer.match(path)) continue;
    const methods = Object.entries(layer.route.methods)
      .filter(([method, on]) => on && method !== '_all')
      .map(([method]) => method.toUpperCase());
    // A route taking every method is a catch-all (Nest's 404 for the paths outside the `/v1` prefix), not a method the path serves.
    if (methods.length < METHODS.length) routes.push({ pattern: layer.route.path, methods });
  }
  return routes;
}

/** The methods the Express router serves on a path, for a truthful `Allow` on a 405. */
export function allowedMethodsFor(app: Application, path: string): string[] {
  const methods = new Set(routesOn(app, path).flatMap((route) => route.methods));
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

/** The pattern of the route that serves (or would serve) `method` on `path`, for a request answered before routing (a 429). */
export function routePatternFor(app: Application, method: string, path: string): string | undefined {
  const wanted = method === 'HEAD' ? 'GET' : method;
  const route = routesOn(app, path).find(({ pattern, methods }) => typeof pattern === 'string' && methods.includes(wanted));
  return route?.pattern as string | undefined;
}
