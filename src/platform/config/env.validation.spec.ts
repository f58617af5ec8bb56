import { serverParts } from '../../app.module.js';
import { validateEnvironment } from './env.validation.js';

/** The checks of every namespace the server's module list declares. */
const validate = validateEnvironment(serverParts().config);

describe("the server's configuration checks", () => {
  it('accepts an empty environment (every default applies)', () => {
    expect(() => validate({})).not.toThrow();
  });

  it('accepts good values', () => {
    expect(() =>
      validate({
        PORT: '8080',
        DATABASE_URL: 'postgres://user@db:5432/pets',
        PUBLIC_BASE_URL: 'https://api.pets.example/v1',
        TRUST_PROXY: '1',
        BODY_LIMIT: '32kb',
        AUTH_CACHE_TTL_MS: '2000',
        GET_PET_SUNSET: '2030-12-05T00:00:00Z',
        NODE_ENV: 'production',
        ALLOWED_HOSTS: 'api.pets.example, pets.example,[::1],10.0.0.7',
        REDIS_URL: 'rediss://user:secret@cache.internal:6380/0',
        REDIS_CLUSTER_NODES: 'redis-1:6379,redis-2:6379',
        LOG_LEVEL: 'debug',
        CORS_ORIGINS: 'https://app.example, http://localhost:5173',
        SHUTDOWN_READINESS_DELAY_MS: '5000',
      }),
    ).not.toThrow();
  });

  it('names every bad variable in one message', () => {
    let message = '';
    try {
      validate({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        PUBLIC_BASE_URL: 'https://api.pets.example',
        ALLOWED_HOSTS: 'api.pets.example:443',
        BODY_LIMIT: 'lots',
        AUTH_CACHE_TTL_MS: '60000',
        GET_PET_SUNSET: 'next year',
        NODE_ENV: 'prod',
        REDIS_URL: 'http://cache',
        REDIS_CLUSTER_NODES: 'a:b',
        RATE_LIMIT_ANONYMOUS_PLAN: 'enterprise',
        RATE_LIMIT_BAN_THRESHOLD: '0',
        LOG_LEVEL: 'loud',
        CORS_ORIGINS: 'app.example',
        SHUTDOWN_GRACE_MS: '-1',
        DATABASE_QUERY_TIMEOUT_MS: '5',
      });
    } catch (error) {
      message = (error as Error).message;
    }
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'PUBLIC_BASE_URL',
      'ALLOWED_HOSTS',
      'BODY_LIMIT',
      'AUTH_CACHE_TTL_MS',
      'GET_PET_SUNSET',
      'NODE_ENV',
      'REDIS_URL',
      'REDIS_CLUSTER_NODES',
      'RATE_LIMIT_ANONYMOUS_PLAN',
      'RATE_LIMIT_BAN_THRESHOLD',
      'LOG_LEVEL',
      'CORS_ORIGINS',
      'SHUTDOWN_GRACE_MS',
      'DATABASE_QUERY_TIMEOUT_MS',
    ]) {
      expect(message).toContain(name);
    }
  });

  it('in production, requires PUBLIC_BASE_URL or ALLOWED_HOSTS, so links never come from an untrusted Host', () => {
    const database = { DATABASE_URL: 'postgres://pets@db:5432/pets' };
    expect(() => validate({ NODE_ENV: 'production', PORT: 'eighty', ...database })).toThrow(
      /PORT must be an integer[\s\S]*NODE_ENV is production: PUBLIC_BASE_URL or ALLOWED_HOSTS must be set in production/,
    );
    const production = [{ PUBLIC_BASE_URL: 'https://api.pets.example/v1' }, { ALLOWED_HOSTS: 'api.pets.example' }];
    for (const env of production) expect(() => validate({ NODE_ENV: 'production', ...database, ...env })).not.toThrow();
    expect(() => validate({ NODE_ENV: 'development' })).not.toThrow();
    // The migrations and the command-line tool build no links.
    const notServing = validateEnvironment(serverParts().config, { serving: false });
    expect(() => notServing({ NODE_ENV: 'production', ...database })).not.toThrow();
  });

  it('in production, requires DATABASE_URL: the embedded PostgreSQL is a developer one', () => {
    expect(() => validate({ NODE_ENV: 'production', ALLOWED_HOSTS: 'api.pets.example' })).toThrow(
      /NODE_ENV is production: DATABASE_URL must be set in production: the embedded PostgreSQL is for development only/,
    );
    expect(() => validate({ NODE_ENV: 'development' })).not.toThrow();
  });

  it.each(['https://api.pets.example', 'api.pets.example:8443', 'api_pets.example', '*.pets.example', 'a,,b..c'])(
    'refuses ALLOWED_HOSTS=%s (host names only, no scheme, port or wildcard)',
    (value) => {
      expect(() => validate({ ALLOWED_HOSTS: value })).toThrow(/ALLOWED_HOSTS must be a comma-separated list of host names/);
    },
  );

  it('refuses TRUST_PROXY=true in production, naming the variable and what to set instead', () => {
    expect(() => validate({ NODE_ENV: 'production', TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY must not be true in production .*number of proxies in front/,
    );
    const production = { DATABASE_URL: 'postgres://pets@db/pets', PUBLIC_BASE_URL: 'https://api.pets.example/v1' };
    expect(() => validate({ NODE_ENV: 'production', TRUST_PROXY: '1', ...production })).not.toThrow();
    expect(() => validate({ NODE_ENV: 'production', TRUST_PROXY: '10.0.0.0/8, 192.0.2.1', ...production })).not.toThrow();
    expect(() => validate({ NODE_ENV: 'development', TRUST_PROXY: 'true' })).not.toThrow();
  });

  it('takes RATE_LIMIT_IN_PROCESS_ADDRESSES from 100 to 10,000,000', () => {
    expect(() => validate({ RATE_LIMIT_IN_PROCESS_ADDRESSES: '100' })).not.toThrow();
    expect(() => validate({ RATE_LIMIT_IN_PROCESS_ADDRESSES: '99' })).toThrow(/RATE_LIMIT_IN_PROCESS_ADDRESSES must be an integer/);
  });
});
