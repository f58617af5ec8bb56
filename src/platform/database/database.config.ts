import { defineConfig, isInteger, isOneOf, type EnvCheck } from '../config/index.js';
import { parseDatabaseUrl } from './database-url.js';

export interface DatabaseConfig {
  url?: string;
  migrationsRun: boolean;
  /** The longest a PostgreSQL query may take before the request answers 503. */
  queryTimeoutMs: number;
}

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
  (): DatabaseConfig => ({
    url: process.env.DATABASE_URL || undefined,
    migrationsRun: process.env.DATABASE_MIGRATIONS_RUN !== 'false',
    queryTimeoutMs: Number(process.env.DATABASE_QUERY_TIMEOUT_MS || 10_000),
  }),
);
