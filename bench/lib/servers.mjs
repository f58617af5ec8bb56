/* global fetch */
// The servers under measurement: what each runs, with which data, and the requests it is loaded with.
import { join } from 'node:path';
import { load } from './load.mjs';
import { startServer, tail } from './processes.mjs';

/**
 * The run's own Redis key prefix. Client ids restart at 1 in every fresh database, so a fixed
 * prefix on a shared Redis would hand a run the counters an earlier run left for the same ids.
 */
export const RUN_PREFIX = `petsbench:${Date.now().toString(36)}${process.pid.toString(36)}:`;
export const ENDPOINTS = ['list', 'status', 'get', 'create'];
export const SERVERS = ['ceiling', 'usual-build', 'fastify-build', 'service', 'embedded'];
const NEW_PET = JSON.stringify({ name: 'Bench', categoryId: 1, status: 'available' });

/** The request `server` is loaded with on `endpoint`. */
export function target(server, endpoint) {
  const headers = server.key ? { authorization: `Bearer ${server.key}` } : {};
  const get = (path) => ({ method: 'GET', path, headers, expect: 200 });
  if (endpoint === 'list') return get('/v1/pets?limit=20');
  if (endpoint === 'status') return get('/v1/pets?status=available');
  if (endpoint === 'get') return get(`/v1/pets/${server.petId}`);
  return { method: 'POST', path: '/v1/pets', headers: { ...headers, 'content-type': 'application/json' }, body: NEW_PET, expect: 201 };
}

/**
 * A build of the service (this checkout's or the baseline's, in `cwd`) on `databaseUrl`, with Redis
 * when `redisUrl` is set; without `databaseUrl`, on its embedded default (outside production), in `workdir`.
 */
export function serviceServer({ name, label, cwd, workdir = cwd, databaseUrl, redisUrl, endpoints, key, petId, subscribed }) {
  const env = {
    ...serviceEnv(databaseUrl),
    SHUTDOWN_READINESS_DELAY_MS: '0',
    ...(redisUrl ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `${RUN_PREFIX}${name}:` } : {}),
    // Endpoints are subscribed: this replica writes every event and leaves delivery to replicas of its own.
    ...(subscribed ? { WEBHOOK_DELIVERY: 'false' } : {}),
  };
  return { name, label, script: join(cwd, 'dist/src/main.js'), cwd: workdir, env, readyPath: '/health/live', endpoints, key, petId };
}

/** A build's environment: production on `databaseUrl`, else the embedded default, which is development's. */
export const serviceEnv = (databaseUrl) => ({
  LOG_LEVEL: 'warn',
  DATABASE_MIGRATIONS_RUN: 'true',
  ...(databaseUrl ? { NODE_ENV: 'production', ALLOWED_HOSTS: '127.0.0.1', DATABASE_URL: databaseUrl } : { NODE_ENV: 'development' }),
});

/** bench/ceiling on the service's Express adapter: a fixed 20-animal array, nothing else. */
export const ceilingServer = (cwd) => ({
  name: 'ceiling',
  label: 'ceiling',
  script: 'dist/bench/ceiling/main.js',
  cwd,
  env: { NODE_ENV: 'production' },
  readyPath: '/v1/pets',
  endpoints: ['list'],
});

/** A peer, bench/peers/<name>, on the service's database, key and Redis. */
const peerServer =
  (name, label, endpoints) =>
  ({ cwd, databaseUrl, redisUrl, key }) => ({
    name,
    label,
    script: `dist/bench/peers/${name}/main.js`,
    cwd,
    env: { NODE_ENV: 'production', DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `${RUN_PREFIX}${name}:` },
    readyPath: '/health',
    endpoints,
    key,
  });

export const usualBuildServer = peerServer('usual-build', 'usual build', ['list']);
export const fastifyBuildServer = peerServer('fastify-build', 'Fastify build', ['list', 'status']);

/** The features whose cost BENCH_FEATURES measures, each an on/off pair in the same rounds. */
export const FEATURES = ['request-log', 'metrics', 'helmet', 'limiter', 'read-cache', 'key-lookup', 'tracing'];

/**
 * `service` with `feature` switched the other way, on the list: the request log on (LOG_LEVEL=info),
 * tracing on (sampling `tracing.ratio` of the requests, exporting over OTLP/HTTP to `tracing.sinkUrl`),
 * the read cache off (READ_CACHE_TTL_MS=0), the others taken out by bench/service-without. Its
 * comparison is always feature on / off.
 */
export function featureServer(service, feature, tracing) {
  const name = `feature-${feature}`;
  const variant = { ...service, name, endpoints: ['list'] };
  const env = { ...service.env, REDIS_KEY_PREFIX: `${RUN_PREFIX}${name}:` };
  if (feature === 'request-log')
    return { ...variant, label: 'service, request log on', env: { ...env, LOG_LEVEL: 'info' }, on: name, off: 'service' };
  if (feature === 'tracing') {
    const otel = {
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: tracing.sinkUrl,
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: String(tracing.ratio),
    };
    return { ...variant, label: `service, ${tracing.ratio * 100} % traced`, env: { ...env, ...otel }, on: name, off: 'service' };
  }
  const off = { ...variant, label: `service, ${feature} off`, on: 'service', off: name };
  if (feature === 'read-cache') return { ...off, env: { ...env, READ_CACHE_TTL_MS: '0' } };
  return { ...off, script: 'dist/bench/service-without/main.js', env: { ...env, BENCH_WITHOUT: feature } };
}

/**
 * Starts `definition` (its log in `tmp`) and checks that each of its endpoints answers as it
 * should before anything is measured: the expected status, and 20 animals on the list.
 */
export async function start(definition, tmp) {
  const logFile = join(tmp, `${definition.name}.log`);
  const server = { ...definition, ...(await startServer({ ...definition, logFile })) };
  for (const endpoint of server.endpoints) {
    const { method, path, headers, body, expect } = target(server, endpoint);
    const response = await fetch(`${server.base}${path}`, { method, headers, body });
    const text = await response.text();
    const wrong =
      response.status !== expect
        ? `answered ${response.status}`
        : endpoint === 'list' && JSON.parse(text).length !== 20 && 'did not list 20 animals';
    if (wrong) throw new Error(`${server.label}: ${method} ${path} ${wrong} (expected ${expect}): ${text.slice(0, 300)}`);
  }
  return server;
}

/** One load of `server` on `endpoint`; a server that died meanwhile fails the run, with its log. */
export function loadOnce(server, endpoint, { connections, seconds }) {
  const { exitCode, signalCode } = server.child;
  if (exitCode !== null || signalCode !== null)
    throw new Error(`${server.label} exited (${exitCode ?? signalCode}); its log:\n${tail(server.logFile)}`);
  return load({ base: server.base, target: target(server, endpoint), connections, seconds, pid: server.pid });
}
