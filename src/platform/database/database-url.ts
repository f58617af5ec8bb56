export type DatabaseTarget = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/** The embedded default: a SQLite file beside the working directory. */
export const DEFAULT_SQLITE_PATH = 'data/pets.sqlite';

/**
 * Reads `DATABASE_URL`: unset means the SQLite file `data/pets.sqlite`; `sqlite::memory:`,
 * `sqlite:PATH` and `postgres://...` (or `postgresql://...`) choose the others.
 */
export function parseDatabaseUrl(url: string | undefined): DatabaseTarget {
  if (!url) return { kind: 'sqlite', path: DEFAULT_SQLITE_PATH };
  if (url === 'sqlite::memory:') return { kind: 'sqlite', path: ':memory:' };
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (!path) throw new Error('must name a file after sqlite:');
    return { kind: 'sqlite', path };
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    if (!URL.canParse(url) || !new URL(url).hostname) throw new Error('is not a valid postgres:// URL with a host');
    return { kind: 'postgres', url };
  }
  throw new Error('must be sqlite::memory:, sqlite:PATH or postgres://...');
}
