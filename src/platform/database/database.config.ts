import { defineConfig, isInteger, isOneOf, type EnvCheck } from '../config/index.js';
import { parseDatabaseUrl } from './database-url.js';

export type DatabaseConfig = ReturnType<typeof databaseConfig>;

const isDatabaseUrl: EnvCheck = (value) => {
  try {
    parseDatabaseUrl(value);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};

export const databaseConfig = defineConfig(
  'database',
  {
    DATABASE_URL: isDatabaseUrl,
    DATABASE_MIGRATIONS_RUN: isOneOf('true', 'false'),
    DATABASE_QUERY_TIMEOUT_MS: isInteger(100, 600_000),
  },
  () => ({
    url: process.env.DATABASE_URL || undefined,
    migrationsRun: process.env.DATABASE_MIGRATIONS_RUN !== 'false',
    /** The longest a PostgreSQL query may take before the request answers 503. */
    queryTimeoutMs: Number(process.env.DATABASE_QUERY_TIMEOUT_MS || 10_000),
  }),
);
