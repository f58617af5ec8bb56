import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from './database.config.js';
import { parseDatabaseUrl } from './database-url.js';
import { MIGRATIONS } from './migrations/index.js';

/** The Nest module's and the TypeORM CLI's (`ormconfig.ts`) options alike, so they cannot drift apart. */
export function buildTypeOrmOptions({ url, migrationsRun, queryTimeoutMs }: DatabaseConfig): DataSourceOptions {
  const target = parseDatabaseUrl(url);
  const common = { migrations: MIGRATIONS, migrationsRun, synchronize: false } as const;
  if (target.kind === 'postgres') {
    return {
      ...common,
      type: 'postgres',
      url: target.url,
      // ids are int64 columns but never exceed 2^53 - 1, so they are safe as JS numbers.
      parseInt8: true,
      // Bounded waits: a database that does not answer costs a request seconds, never a hang.
      extra: { max: 10, connectionTimeoutMillis: 5_000, query_timeout: queryTimeoutMs },
    };
  }
  if (target.path !== ':memory:') mkdirSync(dirname(target.path), { recursive: true });
  return {
    ...common,
    type: 'better-sqlite3',
    database: target.path,
    enableWAL: target.path !== ':memory:',
  };
}
