/* global fetch */
// The servers under measurement (A ceiling, A2 the ceiling on Fastify, A3 the ceiling on Nest's default
// Express server, B PostgreSQL + Redis, P usual build, C SQLite, D limiter off): what each runs and is
// loaded with, starting them, and one load of one of their endpoints.
import { join } from 'node:path';
import { load } from './load.mjs';
import { log } from './log.mjs';
import { ROOT } from './paths.mjs';
import { startServer, tail } from './processes.mjs';

/** Redis key prefixes of the service's servers and of the usual build. */
// Per run: client ids restart at 1 in every database, so on a shared Redis a fixed prefix would let
// a run's clients pick up the counters an earlier run (on another database) left for the same ids.
const RUN = `${Date.now().toString(36)}${process.pid.toString(36)}`;
export const SERVICE_PREFIX = `petsbench:${RUN}:`;
export const PEER_PREFIX = `petspeer:${RUN}:`;
const NEW_PET = JSON.stringify({ name: 'Bench', categoryId: 1, status: 'available' });
const SERVICE_ENDPOINTS = ['list', 'status', 'create', 'get'];
/** The ceiling only serves the list, without a key. */
const CEILING_TARGETS = { list: { key: 'list', label: 'GET /v1/pets', method: 'GET', path: '/v1/pets', headers: {}, expect: 200 } };

/** The endpoints every service server is measured on, with `key`; `petId` is an existing animal. */
function serviceTargets(key, petId) {
  const auth = { authorization: `Bearer ${key}` };
  return {
    list: { key: 'list', label: 'GET /v1/pets?limit=20', method: 'GET', path: '/v1/pets?limit=20', headers: auth, expect: 200 },
    status: {
      key: 'status',
      label: 'GET /v1/pets?status=available',
      method: 'GET',
      path: '/v1/pets?status=available',
      headers: auth,
      expect: 200,
    },
    create: {
      key: 'create',
      label: 'POST /v1/pets',
      method: 'POST',
      path: '/v1/pets',
      headers: { ...auth, 'content-type': 'application/json' },
      body: NEW_PET,
      expect: 201,
    },
    get: { key: 'get', label: `GET /v1/pets/{id}`, method: 'GET', path: `/v1/pets/${petId}`, headers: auth, expect: 200 },
  };
}

function serviceEnv(extra) {
  return {
    NODE_ENV: 'production',
    ALLOWED_HOSTS: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATABASE_MIGRATIONS_RUN: 'false',
    REDIS_KEY_PREFIX: SERVICE_PREFIX,
    SHUTDOWN_READINESS_DELAY_MS: '0',
    SHUTDOWN_GRACE_MS: '3000',
    ...extra,
  };
}

/** A ceiling server: bench/ceiling on `platform` (its CEILING_PLATFORM; unset: the service's Express adapter). */
function ceiling(server, label, description, platform) {
  return {
    server,
    label,
    description,
    script: 'dist/bench/ceiling/main.js',
    env: platform ? { CEILING_PLATFORM: platform } : {},
    readyPath: '/v1/pets',
    key: undefined,
    endpoints: ['list'],
    targets: CEILING_TARGETS,
  };
}

/**
 * The servers this machine can run, in measuring order: B and D need PostgreSQL, P also Redis.
 * @param {{ postgres: boolean, redisUrl?: string, databaseUrl: string, sqliteUrl: string, pgKey?: string, sqliteKey: string, petId: number }} options
 */
export function serverDefinitions({ postgres, redisUrl, databaseUrl, sqliteUrl, pgKey, sqliteKey, petId }) {
  const withRedis = redisUrl ? { REDIS_URL: redisUrl } : {};
  const service = { script: 'dist/src/main.js', readyPath: '/health/live', endpoints: SERVICE_ENDPOINTS };
  return [
    ceiling('ceiling', 'A ceiling', "bare NestJS app on the service's Express adapter, fixed 20-animal array, no auth/limiter/database"),
    ceiling(
      'ceiling-fastify',
      'A2 ceiling on Fastify',
      'A on @nestjs/platform-fastify instead of Express: what the HTTP platform costs',
      'fastify',
    ),
    ceiling(
      'ceiling-express-default',
      "A3 ceiling, Nest's Express",
      "A on the HTTP server Nest's ExpressAdapter creates: what the service's adapter saves",
      'express-default',
    ),
    postgres && {
      ...service,
      server: 'postgres',
      label: redisUrl ? 'B PostgreSQL + Redis' : 'B PostgreSQL (no Redis)',
      description: `service on PostgreSQL${redisUrl ? ' + Redis limiter' : ', in-process limiter'}`,
      env: serviceEnv({ DATABASE_URL: databaseUrl, ...withRedis }),
      key: pgKey,
      targets: serviceTargets(pgKey, petId),
    },
    postgres &&
      redisUrl && {
        server: 'peer',
        label: 'P usual build',
        description: 'bench/peers/usual-build: bearer guard, Repository.find, ValidationPipe, @nestjs/throttler in Redis, B’s database',
        script: 'dist/bench/peers/usual-build/main.js',
        env: { NODE_ENV: 'production', DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, REDIS_KEY_PREFIX: PEER_PREFIX },
        readyPath: '/health',
        key: pgKey,
        endpoints: ['list'],
        targets: serviceTargets(pgKey, petId),
      },
    {
      ...service,
      server: 'sqlite',
      label: 'C SQLite, in-process',
      description: 'service on a SQLite file in a temp dir, in-process limiter',
      env: serviceEnv({ DATABASE_URL: sqliteUrl }),
      key: sqliteKey,
      targets: serviceTargets(sqliteKey, petId),
    },
    postgres && {
      ...service,
      server: 'limiter-off',
      label: 'D B, limiter off',
      description: 'B with RATE_LIMIT_ENABLED=false',
      env: serviceEnv({ DATABASE_URL: databaseUrl, ...withRedis, RATE_LIMIT_ENABLED: 'false' }),
      key: pgKey,
      targets: serviceTargets(pgKey, petId),
    },
  ].filter(Boolean);
}

/**
 * Starts every defined server (its log in `tmp`; from `cwd`, the repository root unless it names
 * another checkout) and checks each endpoint answers as expected.
 */
export async function startServers(definitions, tmp) {
  log(`starting ${definitions.length} servers`);
  const servers = [];
  for (const definition of definitions) {
    const server = await startServer({
      name: definition.label,
      script: definition.script,
      env: definition.env,
      readyPath: definition.readyPath,
      logFile: join(tmp, `${definition.server}.log`),
      cwd: definition.cwd ?? ROOT,
    });
    servers.push({ ...definition, ...server });
    log(`  ${definition.label}: pid ${server.pid}, ${server.base}`);
  }
  // Every endpoint answers as expected before anything is measured.
  for (const server of servers) {
    for (const name of server.endpoints) {
      const target = server.targets[name];
      const response = await fetch(`${server.base}${target.path}`, { method: target.method, headers: target.headers, body: target.body });
      const text = await response.text();
      if (response.status !== target.expect) {
        throw new Error(`${server.label} ${target.label} answered ${response.status} (expected ${target.expect}): ${text.slice(0, 300)}`);
      }
      if (name === 'list' && JSON.parse(text).length !== 20) throw new Error(`${server.label} ${target.label} did not return 20 animals`);
    }
  }
  return servers;
}

/**
 * One load of a running server's endpoint `name`, with its CPU time (a server that died meanwhile
 * fails the run, with its log).
 * @param {{ connections: number, seconds?: number, amount?: number, latencies?: boolean }} options
 */
export function loadOnce(server, name, options) {
  const { exitCode, signalCode } = server.child;
  if (exitCode !== null || signalCode !== null) {
    throw new Error(`${server.label} (pid ${server.pid}) exited (${exitCode ?? signalCode}); its log:\n${tail(server.logFile)}`);
  }
  return load({ base: server.base, target: server.targets[name], pid: server.pid, ...options });
}
