import { registerAs } from '@nestjs/config';

export interface DatabaseConfig {
  url?: string;
  migrationsRun: boolean;
  /** The longest a PostgreSQL query may take before the request answers 503. */
  queryTimeoutMs: number;
}

export const databaseConfig = registerAs('database', (): DatabaseConfig => ({
  url: process.env.DATABASE_URL || undefined,
  migrationsRun: process.env.DATABASE_MIGRATIONS_RUN !== 'false',
  queryTimeoutMs: Number(process.env.DATABASE_QUERY_TIMEOUT_MS || 10_000),
}));
