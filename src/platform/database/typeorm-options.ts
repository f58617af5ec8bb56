import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from './database.config.js';

/** The Nest module's and the TypeORM CLI's (`ormconfig.ts`) options alike, so they cannot drift apart. */
export function buildTypeOrmOptions(
  url: string,
  { migrationsRun, queryTimeoutMs }: Pick<DatabaseConfig, 'migrationsRun' | 'queryTimeoutMs'>,
  migrations: DataSourceOptions['migrations'],
): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    migrations,
    migrationsRun,
    synchronize: false,
    // ids are int64 columns but never exceed 2^53 - 1, so they are safe as JS numbers.
    parseInt8: true,
    // Bounded waits: a database that does not answer costs a request seconds, never a hang.
    extra: { max: 10, connectionTimeoutMillis: 5_000, query_timeout: queryTimeoutMs },
  };
}
