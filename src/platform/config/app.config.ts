import bytes from 'bytes';
import { commaList, defineConfig, isInteger, isOneOf, type EnvCheck } from './define-config.js';

export type AppConfig = ReturnType<typeof appConfig>;

const isBaseUrl: EnvCheck = (value) => {
  try {
    const url = new URL(value);
    if (!['http:', 'https:'].includes(url.protocol)) return 'must be an http(s) URL';
    return url.pathname.replace(/\/+$/, '').endsWith('/v1') ? undefined : 'must end with /v1';
  } catch {
    return 'must be an absolute URL ending with /v1';
  }
};

const HOST_NAME = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$|^\[[0-9a-f:.]+\]$/i;

const isHostList: EnvCheck = (value) =>
  commaList(value).every((host) => HOST_NAME.test(host))
    ? undefined
    : 'must be a comma-separated list of host names without scheme or port, such as api.pets.example,pets.example';

const isByteSize: EnvCheck = (value) => ((bytes.parse(value) ?? 0) > 0 ? undefined : 'must be a size such as 16kb or 1mb');

const isTrustProxy: EnvCheck = (value, env) => {
  if (!/^(true|false|\d{1,2}|[0-9a-fA-F.:/,\s]+|loopback|linklocal|uniquelocal)$/.test(value)) {
    return 'must be true, false, a hop count, or a comma-separated list of addresses';
  }
  return value === 'true' && env.NODE_ENV === 'production'
    ? 'must not be true in production (it trusts the address the client writes itself): set the number of proxies in front, such as 1, or their addresses'
    : undefined;
};

/** Production also needs its own database. */
const isEnvironment: EnvCheck = (value, env) => {
  const invalid = isOneOf('development', 'production', 'test')(value, env);
  if (invalid || value !== 'production' || env.DATABASE_URL) return invalid;
  return 'is production: DATABASE_URL must be set in production: the embedded PostgreSQL is for development only';
};

/**
 * What only a process that serves HTTP needs: production links come from PUBLIC_BASE_URL or a Host ALLOWED_HOSTS
 * vouches for. The migrations and the command-line tool build no links, so they run without either.
 */
export const servingProblems = (env: Record<string, unknown>): string[] =>
  env.NODE_ENV === 'production' && !env.PUBLIC_BASE_URL && !env.ALLOWED_HOSTS
    ? [
        'NODE_ENV is production: PUBLIC_BASE_URL or ALLOWED_HOSTS must be set in production, as links are never built from an untrusted Host header',
      ]
    : [];

const trimSlash = (url: string | undefined) => url?.replace(/\/+$/, '');

function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}

export const appConfig = defineConfig(
  'app',
  {
    PORT: isInteger(0, 65535),
    HOST: (value) => (value.trim() ? undefined : 'must not be empty'),
    NODE_ENV: isEnvironment,
    PUBLIC_BASE_URL: isBaseUrl,
    STAGING_BASE_URL: isBaseUrl,
    ALLOWED_HOSTS: isHostList,
    TRUST_PROXY: isTrustProxy,
    BODY_LIMIT: isByteSize,
    LOG_LEVEL: isOneOf('trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'),
    CORS_ORIGINS: (value) =>
      value.split(',').every((origin) => /^https?:\/\/[^/\s]+$/.test(origin.trim()))
        ? undefined
        : 'must be a comma-separated list of origins such as https://app.example',
    SHUTDOWN_READINESS_DELAY_MS: isInteger(0, 120_000),
    SHUTDOWN_GRACE_MS: isInteger(0, 300_000),
  },
  () => ({
    port: Number(process.env.PORT || 3000),
    host: process.env.HOST || '0.0.0.0',
    production: process.env.NODE_ENV === 'production',
    publicBaseUrl: trimSlash(process.env.PUBLIC_BASE_URL || undefined),
    stagingBaseUrl: trimSlash(process.env.STAGING_BASE_URL || undefined),
    /** Lower case, no port; empty means any. */
    allowedHosts: commaList(process.env.ALLOWED_HOSTS).map((host) => host.toLowerCase()),
    trustProxy: parseTrustProxy(process.env.TRUST_PROXY),
    bodyLimit: process.env.BODY_LIMIT || '16kb',
    logLevel: process.env.LOG_LEVEL || 'info',
    /** Empty means no CORS headers at all. */
    corsOrigins: commaList(process.env.CORS_ORIGINS),
    shutdownReadinessDelayMs: Number(process.env.SHUTDOWN_READINESS_DELAY_MS || 5_000),
    shutdownGraceMs: Number(process.env.SHUTDOWN_GRACE_MS || 10_000),
  }),
);
