import type { DataSourceOptions } from 'typeorm';
import { defineConfig, isInteger, isOneOf, type EnvCheck } from '../config/index.js';

export type DatabaseConfig = ReturnType<typeof databaseConfig>;

const isPostgresUrl: EnvCheck = (value) =>
  /^postgres(ql)?:\/\//.test(value) && URL.canParse(value) && new URL(value).hostname ? undefined : 'must be a postgres:// URL with a host';

export const databaseConfig = defineConfig(
  'database',
  {
    DATABASE_URL: isPostgresUrl,
    DATABASE_MIGRATIONS_RUN: isOneOf('true', 'false'),
    DATABASE_QUERY_TIMEOUT_MS: isInteger(100, 600_000),
  },
  () => ({
    /** Unset: the embedded PostgreSQL (`embeddedPostgres`), outside production only. */
    url: process.env.DATABASE_URL || undefined,
    migrationsRun: process.env.DATABASE_MIGRATIONS_RUN !== 'false',
    /** The longest a PostgreSQL query may take before the request answers 503. */
    queryTimeoutMs: Number(process.env.DATABASE_QUERY_TIMEOUT_MS || 10_000),
  }),
);

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
