import { METHODS } from 'node:http';
import type { Express } from 'express';

interface RouteLayer {
  route?: { path: unknown; methods: Record<string, boolean> };
  match(path: string): boolean;
}

const routeLayersOf = (app: Express): RouteLayer[] => (app as unknown as { router?: { stack: RouteLayer[] } }).router?.stack ?? [];

/** A route taking every method is a catch-all (Nest's 404 for the paths outside the `/v1` prefix), not a method the path serves. */
const isCatchAll = (served: string[]) => served.length >= METHODS.length;

const servedMethods = (layer: RouteLayer & { route: NonNullable<RouteLayer['route']> }) =>
  Object.entries(layer.route.methods)
    .filter(([method, on]) => on && method !== '_all')
    .map(([method]) => method.toUpperCase());

/** The methods the Express router serves on a path, for a truthful `Allow` on a 405. */
export function allowedMethodsFor(app: Express, path: string): string[] {
  const methods = new Set<string>();
  for (const layer of routeLayersOf(app)) {
    if (!layer.route || !layer.match(path)) continue;
    const served = servedMethods(layer as Parameters<typeof servedMethods>[0]);
    if (!isCatchAll(served)) served.forEach((method) => methods.add(method));
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

/** The pattern of the route that serves (or would serve) `method` on `path`, for a request answered before routing (a 429). */
export function routePatternFor(app: Express, method: string, path: string): string | undefined {
  const wanted = method === 'HEAD' ? 'GET' : method;
  for (const layer of routeLayersOf(app)) {
    if (!layer.route || typeof layer.route.path !== 'string' || !layer.match(path)) continue;
    const served = servedMethods(layer as Parameters<typeof servedMethods>[0]);
    if (!isCatchAll(served) && served.includes(wanted)) return layer.route.path;
  }
  return undefined;
}
