import { METHODS } from 'node:http';
import type { Express } from 'express';

interface RouteLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): boolean;
}

/**
 * The methods the Express router serves on a path, for a truthful `Allow` on a 405. A route taking every
 * method is a catch-all (Nest's 404 for the paths outside the `/v1` prefix), not a method the path serves.
 */
export function allowedMethodsFor(app: Express, path: string): string[] {
  const stack = (app as unknown as { router?: { stack: RouteLayer[] } }).router?.stack ?? [];
  const methods = new Set<string>();
  for (const layer of stack) {
    if (!layer.route || !layer.match(path)) continue;
    const served = Object.entries(layer.route.methods).filter(([method, on]) => on && method !== '_all');
    if (served.length >= METHODS.length) continue;
    for (const [method] of served) methods.add(method.toUpperCase());
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
