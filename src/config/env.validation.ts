import bytes from 'bytes';
import { parseDatabaseUrl } from '../database/database-url.js';
import { FIXED_PLAN_NAMES } from '../plans/plan-catalogue.js';
import { commaList } from './app.config.js';
import { parseClusterNodes } from './redis.config.js';

/**
 * Checks every environment variable the service reads and reports all bad ones at once,
 * so an operator fixes a broken deployment in one round instead of one variable per restart.
 */
type Check = (value: string, env: Record<string, unknown>) => string | undefined;

const isInteger =
  (min: number, max: number): Check =>
  (value) =>
    /^\d+$/.test(value) && Number(value) >= min && Number(value) <= max ? undefined : `must be an integer from ${min} to ${max}`;

const isInstant: Check = (value) =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value))
    ? undefined
    : 'must be an ISO 8601 instant such as 2030-12-05T00:00:00Z';

const isBaseUrl: Check = (value) => {
  try {
    const url = new URL(value);
    if (!['http:', 'https:'].includes(url.protocol)) return 'must be an http(s) URL';
    return url.pathname.replace(/\/+$/, '').endsWith('/v1') ? undefined : 'must end with /v1';
  } catch {
    return 'must be an absolute URL ending with /v1';
  }
};

const HOST_NAME = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$|^\[[0-9a-f:.]+\]$/i;

const isHostList: Check = (value) =>
  commaList(value).every((host) => HOST_NAME.test(host))
    ? undefined
    : 'must be a comma-separated list of host names without scheme or port, such as api.pets.example,pets.example';

const isByteSize: Check = (value) => ((bytes.parse(value) ?? 0) > 0 ? undefined : 'must be a size such as 16kb or 1mb');

const isTrustProxy: Check = (value, env) => {
  if (!/^(true|false|\d{1,2}|[0-9a-fA-F.:/,\s]+|loopback|linklocal|uniquelocal)$/.test(value)) {
    return 'must be true, false, a hop count, or a comma-separated list of addresses';
  }
  // `true` believes the left-most X-Forwarded-For address, which the client writes itself: any
  // caller could pick the address its anonymous quota is counted for.
  return value === 'true' && env.NODE_ENV === 'production'
    ? 'must not be true in production (it trusts the address the client writes itself): set the number of proxies in front, such as 1, or their addresses'
    : undefined;
};

const isDatabaseUrl: Check = (value) => {
  try {
    parseDatabaseUrl(value);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};

const isRedisUrl: Check = (value) =>
  /^rediss?:\/\/[^/]/.test(value) && URL.canParse(value) ? undefined : 'must be a redis:// or rediss:// URL';

const isClusterNodes: Check = (value) =>
  parseClusterNodes(value).every(({ host, port }) => host && Number.isInteger(port) && port > 0 && port < 65536)
    ? undefined
    : 'must be a comma-separated list of host:port';

const isOneOf =
  (...allowed: string[]): Check =>
  (value) =>
    allowed.includes(value) ? undefined : `must be one of ${allowed.join(', ')}`;

const CHECKS: Record<string, Check> = {
  PORT: isInteger(0, 65535),
  HOST: (value) => (value.trim() ? undefined : 'must not be empty'),
  NODE_ENV: isOneOf('development', 'production', 'test'),
  DATABASE_URL: isDatabaseUrl,
  DATABASE_MIGRATIONS_RUN: isOneOf('true', 'false'),
  DATABASE_QUERY_TIMEOUT_MS: isInteger(100, 600_000),
  PUBLIC_BASE_URL: isBaseUrl,
  STAGING_BASE_URL: isBaseUrl,
  ALLOWED_HOSTS: isHostList,
  TRUST_PROXY: isTrustProxy,
  BODY_LIMIT: isByteSize,
  AUTH_CACHE_TTL_MS: isInteger(0, 5000),
  REDIS_URL: isRedisUrl,
  REDIS_CLUSTER_NODES: isClusterNodes,
  REDIS_COMMAND_TIMEOUT_MS: isInteger(10, 10_000),
  REDIS_KEY_PREFIX: (value) => (/^[\w:.-]{1,64}$/.test(value) ? undefined : 'must be 1 to 64 of [A-Za-z0-9_:.-]'),
  RATE_LIMIT_ENABLED: isOneOf('true', 'false'),
  LOG_LEVEL: isOneOf('trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'),
  CORS_ORIGINS: (value) =>
    value.split(',').every((origin) => /^https?:\/\/[^/\s]+$/.test(origin.trim()))
      ? undefined
      : 'must be a comma-separated list of origins such as https://app.example',
  SHUTDOWN_READINESS_DELAY_MS: isInteger(0, 120_000),
  SHUTDOWN_GRACE_MS: isInteger(0, 300_000),
  RATE_LIMIT_ANONYMOUS_PLAN: isOneOf(...FIXED_PLAN_NAMES),
  RATE_LIMIT_BAN_THRESHOLD: isInteger(1, 1_000_000),
  RATE_LIMIT_BAN_SECONDS: isInteger(1, 86_400),
  RATE_LIMIT_IN_PROCESS_ADDRESSES: isInteger(100, 10_000_000),
  GET_PET_DEPRECATED_AT: isInstant,
  GET_PET_SUNSET: isInstant,
};

const isSet = (env: Record<string, unknown>, name: string) => typeof env[name] === 'string' && env[name] !== '';

type CombinedCheck = (env: Record<string, unknown>) => string | undefined;

/** What only the server needs: the command-line tool and the migrations build no links. */
const SERVER_CHECKS: CombinedCheck[] = [
  (env) =>
    env.NODE_ENV === 'production' && !isSet(env, 'PUBLIC_BASE_URL') && !isSet(env, 'ALLOWED_HOSTS')
      ? 'PUBLIC_BASE_URL or ALLOWED_HOSTS must be set in production (NODE_ENV=production): links are never built from an untrusted Host header'
      : undefined,
];

function check(env: Record<string, unknown>, combined: CombinedCheck[]): Record<string, unknown> {
  const problems = Object.entries(CHECKS).flatMap(([name, isValid]) => {
    if (!isSet(env, name)) return [];
    const problem = isValid(env[name] as string, env);
    return problem ? [`${name} ${problem} (got "${env[name] as string}")`] : [];
  });
  problems.push(...combined.flatMap((rule) => rule(env) ?? []));
  if (problems.length > 0) {
    throw new Error(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
  return env;
}

/** Every variable the service reads (the server, the command-line tool and the migrations). */
export const validateEnvironment = (env: Record<string, unknown>) => check(env, []);

/** The same, plus what the server alone needs; the server checks this before it builds anything. */
export const validateServerEnvironment = (env: Record<string, unknown>) => check(env, SERVER_CHECKS);
