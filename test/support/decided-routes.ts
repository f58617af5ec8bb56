import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export interface DecidedRoute {
  /** The table's path, as written. */
  path: string;
  matches: (path: string) => boolean;
  /** The scopes its Auth cell names; none when any valid key may call it. */
  scopes: string[];
}

const ROW = /^\|(.+?)\|(.+?)\|(.+?)\|(.+?)\|$/;
const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map(([, value]) => value);
const SCOPE = /^[a-z]+:[a-z_]+$/;

/**
 * The routes docs/contract/decisions.md adds to the interface ("## Routes"), read from the repository's
 * copy: what an operation beyond the reference contract must be one of. `{param}` matches a path
 * segment, a trailing `/...` any deeper path; the row of the 404 for "any other" path is no route.
 */
export function decidedRoutes(): DecidedRoute[] {
  const decisions = readFileSync(resolve(process.cwd(), 'docs/contract/decisions.md'), 'utf8');
  const table = decisions.split('## Routes\n')[1].split('\n\n')[0];
  return table
    .split('\n')
    .slice(2)
    .map((line) => ROW.exec(line.trim()))
    .filter((row): row is RegExpExecArray => row !== null && !row[1].trim().startsWith('any other'))
    .flatMap(([, paths, , auth]) =>
      ticked(paths).map((path) => {
        const pattern = path.replace(/\/\.\.\.$/, '').replace(/\{[^}]+\}/g, '[^/]+');
        const regex = new RegExp(`^${pattern}${path.endsWith('/...') ? '(/.*)?' : ''}$`);
        return { path, matches: (candidate: string) => regex.test(candidate), scopes: ticked(auth).filter((name) => SCOPE.test(name)) };
      }),
    );
}
