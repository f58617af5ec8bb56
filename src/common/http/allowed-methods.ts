import type { Express } from 'express';

interface RouteLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): boolean;
}

/** The methods the Express router serves on a path, for a truthful `Allow` on a 405. */
export function allowedMethodsFor(app: Express, path: string): string[] {
  const stack = (app as unknown as { router?: { stack: RouteLayer[] } }).router?.stack ?? [];
  const methods = new Set<string>();
  for (const layer of stack) {
    if (!layer.route || !layer.match(path)) continue;
    for (const [method, served] of Object.entries(layer.route.methods)) {
      if (served && method !== '_all') methods.add(method.toUpperCase());
    }
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
