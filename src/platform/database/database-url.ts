type DatabaseTarget = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/** Reads `DATABASE_URL`: unset is the embedded default, a SQLite file beside the working directory. */
export function parseDatabaseUrl(url: string | undefined): DatabaseTarget {
  if (!url) return { kind: 'sqlite', path: 'data/pets.sqlite' };
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
