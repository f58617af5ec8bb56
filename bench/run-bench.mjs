#!/usr/bin/env node
/* global fetch */
// The benchmark: `npm run bench` (builds first). In one run on this machine it starts each server
// as its own process, loads them over loopback with autocannon in alternating short rounds
// (every server on one endpoint in turn, then the next endpoint, round after round, so drift and
// neighbours affect all alike), records the CPU each request costs the server, PostgreSQL and
// Redis and the load generator, and measures Redis round trips
// and SQL statements per request, first versus deep pages of 1,000,000 animals, and resident
// memory over a 500,000-request run. It prints a table and the targets (MET / NOT MET), and writes
// bench/results/latest.json, docs/benchmarks.json and the generated section of docs/benchmarks.md.
// It exits 0 unless the harness itself fails: missing a target is a finding, not an error.
//
//   A  ceiling: bench/ceiling, a bare NestJS Express app serving a fixed 20-animal array
//   B  the service on PostgreSQL + Redis (the limiter in Redis)
//   C  the service on its embedded defaults: a SQLite file in a temp dir, in-process limiter
//   D  B with RATE_LIMIT_ENABLED=false, so the limiter's own cost is a ratio
//   P  the usual build: bench/peers/usual-build, the list endpoint built the common NestJS way
//      (bearer guard, Repository.find, ValidationPipe, @nestjs/throttler with minute and day
//      throttlers in Redis) on B's database and Redis, loaded on the list right after B; the
//      service / peer ratios are printed per round. Its Redis round trips are counted as B's, and
//      both are driven over a free plan's minute quota to compare what a refused caller sees.
//
// Environment (defaults in brackets):
//   DATABASE_URL             PostgreSQL of B and D [postgres://postgres@127.0.0.1:5432/pets_bench,
//                            created if missing, its pets table reseeded on every run]
//   REDIS_URL                Redis of B and D [redis://127.0.0.1:6379 when it answers]
//   BENCH_DURATION_S [5]     one round of one server and endpoint
//   BENCH_ROUNDS [5]         alternating rounds
//   BENCH_CONNECTIONS [10]   autocannon connections
//   BENCH_WARMUP_ROUNDS [2]  unmeasured rounds first: V8 needs 10-30 s of load on a route before its
//                            code is fully optimised, and a cold server reads up to twice as slow
//   BENCH_SEED_COUNT [1000000]              animals seeded for the deep-page measurement
//   BENCH_DEEP_REQUESTS [1000]              sequential requests per page kind (first/deep, ±status);
//                                           0 skips the deep-page measurement
//   BENCH_SQL_REQUESTS [3000]               list requests whose SQL statements are counted (a third of
//                                           that for each other endpoint)
//   BENCH_REDIS_REQUESTS [2000]             list requests counted with MONITOR and commandstats
//   BENCH_MEMORY_REQUESTS [500000]          the memory run, in chunks of BENCH_MEMORY_CHUNK [100000];
//                                           0 skips it
//   BENCH_MAX_FOREIGN_CPU [0.5]  a run during which other processes (not the servers, the benchmark,
//                            PostgreSQL or Redis) kept more CPUs than this busy is repeated, at most
//                            BENCH_RETRIES [2] times; the least disturbed attempt counts
//   BENCH_PROFILE [0]        1: also run B under `node --cpu-prof` for BENCH_PROFILE_S [20] s of load
//                            and print the top functions (the profile is kept in bench/results/)
//   BENCH_WRITE_DOCS [1]     0: write only bench/results/latest.json
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { cpus, freemem, loadavg, tmpdir, totalmem, type as osType, release as osRelease } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { getJson, load, sequentialLatencies } from './lib/load.mjs';
import { peerCounters, quotaLines, serviceCounters, serviceVsPeer, serviceVsPeerLines } from './lib/peer.mjs';
import { databaseName, preparePostgres } from './lib/postgres.mjs';
import { startCountingProxy } from './lib/pg-proxy.mjs';
import { formatProfile, summariseProfile } from './lib/profile.mjs';
import { rssBytes, run, startServer, stopAll, stopServer, tail, withCpuBreakdown } from './lib/processes.mjs';
import { compareQuotas } from './lib/quota-probe.mjs';
import {
  commandstatsRoundTrips,
  LIMITER_SCRIPT_COMMANDS,
  monitorRoundTrips,
  redisReachable,
  THROTTLER_SCRIPT_COMMANDS,
} from './lib/redis-calls.mjs';
import { printReport, writeResults } from './lib/report.mjs';
import { median } from './lib/stats.mjs';
import { seedPets } from './seed-pets.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/pets_bench';
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

function intEnv(name, fallback, min = 1) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer of at least ${min} (got "${raw}")`);
  return value;
}

const config = {
  durationS: intEnv('BENCH_DURATION_S', 5),
  rounds: intEnv('BENCH_ROUNDS', 5),
  connections: intEnv('BENCH_CONNECTIONS', 10),
  warmupRounds: intEnv('BENCH_WARMUP_ROUNDS', 2, 0),
  seedCount: intEnv('BENCH_SEED_COUNT', 1_000_000),
  deepRequests: intEnv('BENCH_DEEP_REQUESTS', 1_000, 0),
  sqlRequests: intEnv('BENCH_SQL_REQUESTS', 3_000),
  redisRequests: intEnv('BENCH_REDIS_REQUESTS', 2_000),
  memoryRequests: intEnv('BENCH_MEMORY_REQUESTS', 500_000, 0),
  memoryChunk: intEnv('BENCH_MEMORY_CHUNK', 100_000),
  maxForeignCpu: Number(process.env.BENCH_MAX_FOREIGN_CPU ?? 0.5),
  retries: intEnv('BENCH_RETRIES', 2, 0),
  profile: process.env.BENCH_PROFILE === '1',
  profileS: intEnv('BENCH_PROFILE_S', 20),
  writeDocs: process.env.BENCH_WRITE_DOCS !== '0',
};

const log = (line) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
const notes = [];
const started = Date.now();

/** Plans of the keys the CLI creates: load never refused, and the quota probes'. */
const ENTERPRISE = ['--plan', 'enterprise', '--per-minute', '1000000000', '--per-day', '1000000000'];
const FREE = { args: ['--plan', 'free'], perMinute: 60 };
const SMALL_DAY = { args: ['--plan', 'enterprise', '--per-minute', '100', '--per-day', '3'], perDay: 3 };
/** Redis key prefixes of the service's servers and of the usual build. */
const SERVICE_PREFIX = 'petsbench:';
const PEER_PREFIX = 'petspeer:';
/** An existing animal for getPet, and the id the deep page starts after (990,000 of 1,000,000). */
const PET_ID = Math.ceil(config.seedCount / 2);
const DEEP_AFTER = Math.floor(config.seedCount * 0.99);
const NEW_PET = JSON.stringify({ name: 'Bench', categoryId: 1, status: 'available' });

/** The endpoints every service server is measured on; the ceiling only serves `list`. */
const endpoints = (key) => {
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
    get: { key: 'get', label: `GET /v1/pets/{id}`, method: 'GET', path: `/v1/pets/${PET_ID}`, headers: auth, expect: 200 },
  };
};

async function machine(postgresVersion, redisVersion) {
  const cpuInfo = readFileSync('/proc/cpuinfo', 'utf8');
  const autocannonPackage = JSON.parse(readFileSync(join(ROOT, 'node_modules/autocannon/package.json'), 'utf8'));
  return {
    nproc: Number((await run('nproc', [], { cwd: ROOT })).trim()),
    cpuModel: /^model name\s*:\s*(.+)$/m.exec(cpuInfo)?.[1] ?? cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    freeMemoryGiB: Math.round(freemem() / 2 ** 30),
    os: `${osType()} ${osRelease()}`,
    node: process.version,
    postgres: postgresVersion,
    redis: redisVersion,
    autocannon: autocannonPackage.version,
    loadStart: loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
    loadEnd: '',
  };
}

/** A new client with one key on `plan`: `{ key, clientId, ... }` as `keys create --json` prints it. */
async function createKey(databaseUrl, plan = ENTERPRISE) {
  const out = await run(process.execPath, ['dist/src/cli.js', 'keys', 'create', ...plan, '--json'], {
    cwd: ROOT,
    env: { DATABASE_URL: databaseUrl, NODE_ENV: 'production', ALLOWED_HOSTS: '127.0.0.1', LOG_LEVEL: 'warn' },
  });
  return JSON.parse(out.trim().split('\n').pop() ?? '{}');
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

async function main() {
  const tmp = mkdtempSync(join(tmpdir(), 'pets-bench-'));
  const resultsDir = join(ROOT, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  let interrupted = false;
  const onSignal = (signal) => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: stopping the servers and cleaning up`);
    void stopAll().finally(() => {
      rmSync(tmp, { recursive: true, force: true });
      process.exit(130);
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    return await bench(tmp, resultsDir);
  } finally {
    await stopAll();
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function bench(tmp, resultsDir) {
  log(`config: ${JSON.stringify(config)}`);

  // --- Databases and Redis -------------------------------------------------------------------
  const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const ownDatabase = !process.env.DATABASE_URL;
  let postgres;
  try {
    postgres = await preparePostgres(databaseUrl, { create: ownDatabase });
    log(
      `PostgreSQL ${postgres.version}: ${ownDatabase ? 'default' : 'given'} database "${databaseName(databaseUrl)}"${postgres.created ? ' (created)' : ''}`,
    );
  } catch (error) {
    if (!ownDatabase) throw new Error(`DATABASE_URL cannot be used: ${String(error)}`, { cause: error });
    notes.push(`PostgreSQL at ${DEFAULT_DATABASE_URL} is not reachable (${String(error)}): servers B and D were not run.`);
    log(notes.at(-1));
  }
  const redisUrl = process.env.REDIS_URL || DEFAULT_REDIS_URL;
  const redisVersion = await redisReachable(redisUrl);
  if (!redisVersion && process.env.REDIS_URL) throw new Error(`REDIS_URL ${redisUrl} does not answer`);
  if (redisVersion) {
    log(
      `Redis ${redisVersion} at ${redisUrl} (${process.env.REDIS_URL ? 'given by REDIS_URL' : 'the default, reachable'}), key prefix petsbench:`,
    );
  } else {
    notes.push(
      `Redis at ${DEFAULT_REDIS_URL} does not answer: B and D ran with the in-process limiter, Redis round trips not measured, the usual build (P) not run.`,
    );
    log(notes.at(-1));
  }
  if (postgres) {
    notes.push(
      `B and D use ${ownDatabase ? 'the default' : 'the given'} PostgreSQL database "${databaseName(databaseUrl)}"` +
        `${redisVersion ? ` and Redis ${redisUrl}` : ''}${ownDatabase ? ' (its pets table is emptied and reseeded on every run)' : ''}.`,
    );
  }
  const sqliteUrl = `sqlite:${join(tmp, 'pets.sqlite')}`;
  const info = await machine(postgres?.version, redisVersion);

  // --- Build the ceiling, make keys, seed --------------------------------------------------------
  for (const project of ['bench/ceiling', 'bench/peers/usual-build']) {
    log(`building ${project} (tsc -p ${project}/tsconfig.json)`);
    await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', `${project}/tsconfig.json`], { cwd: ROOT });
  }
  const { encodeCursor } = await import(pathToFileURL(join(ROOT, 'dist/src/common/pagination/cursor.js')).href);

  log('creating enterprise keys with the CLI (which also applies the migrations)');
  const sqliteKey = (await createKey(sqliteUrl)).key;
  const pgKey = postgres ? (await createKey(databaseUrl)).key : undefined;

  const seeds = {};
  log(`seeding ${config.seedCount.toLocaleString('en')} animals into SQLite`);
  seeds.sqlite = await seedPets({ url: sqliteUrl, count: config.seedCount, reset: true });
  log(`  ${(seeds.sqlite.ms / 1000).toFixed(1)} s`);
  if (postgres) {
    log(
      `seeding ${config.seedCount.toLocaleString('en')} animals into PostgreSQL${ownDatabase ? ' (reset)' : ' (top-up only: the database was given)'}`,
    );
    seeds.postgres = await seedPets({ url: databaseUrl, count: config.seedCount, reset: ownDatabase });
    log(`  ${(seeds.postgres.ms / 1000).toFixed(1)} s`);
  }

  // --- Servers ----------------------------------------------------------------------------------
  const withRedis = redisVersion ? { REDIS_URL: redisUrl } : {};
  const definitions = [
    {
      server: 'ceiling',
      label: 'A ceiling',
      description: 'bare NestJS app, fixed 20-animal array, no auth/limiter/database',
      script: 'dist/bench/ceiling/main.js',
      env: {},
      readyPath: '/v1/pets',
      key: undefined,
      endpoints: ['list'],
    },
    postgres && {
      server: 'postgres',
      label: redisVersion ? 'B PostgreSQL + Redis' : 'B PostgreSQL (no Redis)',
      description: `service on PostgreSQL${redisVersion ? ' + Redis limiter' : ', in-process limiter'}`,
      script: 'dist/src/main.js',
      env: serviceEnv({ DATABASE_URL: databaseUrl, ...withRedis }),
      readyPath: '/health/live',
      key: pgKey,
      endpoints: ['list', 'status', 'create', 'get'],
    },
    postgres &&
      redisVersion && {
        server: 'peer',
        label: 'P usual build',
        description: 'bench/peers/usual-build: bearer guard, Repository.find, ValidationPipe, @nestjs/throttler in Redis, B’s database',
        script: 'dist/bench/peers/usual-build/main.js',
        env: { NODE_ENV: 'production', DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, REDIS_KEY_PREFIX: PEER_PREFIX },
        readyPath: '/health',
        key: pgKey,
        endpoints: ['list'],
      },
    {
      server: 'sqlite',
      label: 'C SQLite, in-process',
      description: 'service on a SQLite file in a temp dir, in-process limiter',
      script: 'dist/src/main.js',
      env: serviceEnv({ DATABASE_URL: sqliteUrl }),
      readyPath: '/health/live',
      key: sqliteKey,
      endpoints: ['list', 'status', 'create', 'get'],
    },
    postgres && {
      server: 'limiter-off',
      label: 'D B, limiter off',
      description: 'B with RATE_LIMIT_ENABLED=false',
      script: 'dist/src/main.js',
      env: serviceEnv({ DATABASE_URL: databaseUrl, ...withRedis, RATE_LIMIT_ENABLED: 'false' }),
      readyPath: '/health/live',
      key: pgKey,
      endpoints: ['list', 'status', 'create', 'get'],
    },
  ].filter(Boolean);

  // --- SQL statements per request: a dedicated instance of B behind a counting proxy ---------------
  let sql = { skipped: 'no PostgreSQL' };
  const pgDefinition = definitions.find((d) => d.server === 'postgres');
  if (pgDefinition) {
    const upstream = new URL(databaseUrl);
    const proxy = await startCountingProxy({ host: upstream.hostname, port: Number(upstream.port || 5432) });
    const proxied = new URL(databaseUrl);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    log(`SQL statements per request: B behind a PostgreSQL protocol proxy that counts Query and Execute messages`);
    const counted = await startServer({
      name: `${pgDefinition.label} (statements counted)`,
      script: pgDefinition.script,
      env: { ...pgDefinition.env, DATABASE_URL: proxied.toString() },
      readyPath: '/health/live',
      logFile: join(tmp, 'counted.log'),
      cwd: ROOT,
    });
    try {
      const targets = endpoints(pgDefinition.key);
      sql = { method: 'PostgreSQL wire protocol: Query + Execute messages from the server', endpoints: {} };
      for (const name of pgDefinition.endpoints) {
        const amount = name === 'list' ? config.sqlRequests : Math.ceil(config.sqlRequests / 3);
        // Warm: the pool is open and the key and plan lookups are cached, as in steady state.
        await load({ base: counted.base, target: targets[name], connections: config.connections, seconds: 2, latencies: false });
        const before = proxy.snapshot();
        const r = await load({ base: counted.base, target: targets[name], connections: config.connections, amount, latencies: false });
        const after = proxy.snapshot();
        const statements = after.statements - before.statements;
        sql.endpoints[name] = {
          endpoint: targets[name].label,
          requests: r.ok,
          seconds: r.seconds,
          statements,
          perRequest: statements / r.ok,
          newConnections: after.connections - before.connections,
        };
        log(
          `  ${targets[name].label}: ${(statements / r.ok).toFixed(3)} statements per request (${statements} / ${r.ok} in ${r.seconds.toFixed(1)} s)`,
        );
      }
      Object.assign(sql, sql.endpoints.list);
    } finally {
      await stopServer(counted);
      await proxy.close();
    }
  }

  log(`starting ${definitions.length} servers`);
  const servers = [];
  for (const definition of definitions) {
    const server = await startServer({
      name: definition.label,
      script: definition.script,
      env: definition.env,
      readyPath: definition.readyPath,
      logFile: join(tmp, `${definition.server}.log`),
      cwd: ROOT,
    });
    const targets = definition.key
      ? endpoints(definition.key)
      : { list: { key: 'list', label: 'GET /v1/pets', method: 'GET', path: '/v1/pets', headers: {}, expect: 200 } };
    servers.push({ ...definition, ...server, targets });
    log(`  ${definition.label}: pid ${server.pid}, ${server.base}`);
  }
  const byName = Object.fromEntries(servers.map((s) => [s.server, s]));

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

  const loadOnce = (server, name, options) => {
    const { exitCode, signalCode } = server.child;
    if (exitCode !== null || signalCode !== null) {
      throw new Error(`${server.label} (pid ${server.pid}) exited (${exitCode ?? signalCode}); its log:\n${tail(server.logFile)}`);
    }
    return load({ base: server.base, target: server.targets[name], connections: config.connections, pid: server.pid, ...options });
  };

  for (let round = 1; round <= config.warmupRounds; round++) {
    log(`warm-up round ${round}/${config.warmupRounds} (not measured)`);
    for (const server of servers) for (const name of server.endpoints) await loadOnce(server, name, { seconds: config.durationS });
  }

  const pgServer = byName.postgres;
  const results = { sql, redis: undefined, peerRedis: undefined, quota: undefined, deepPages: [], memory: undefined };

  // --- Alternating rounds -------------------------------------------------------------------------
  /** @type {Record<string, Array<import('./lib/load.mjs').LoadResult>>} */
  const runs = {};
  // Endpoint by endpoint, every server in turn (A B C D on the list, then B C D on the next…), so
  // the runs a ratio compares (B and D for the limiter, A and B for the ceiling) are close in time.
  const endpointOrder = [...new Set(servers.flatMap((s) => s.endpoints))];
  for (let round = 1; round <= config.rounds; round++) {
    log(`round ${round}/${config.rounds} (${endpointOrder.join(', ')}; ${servers.map((s) => s.server).join(' ')})`);
    for (const name of endpointOrder) {
      for (const server of servers.filter((s) => s.endpoints.includes(name))) {
        // A run during which other work on the machine kept more than BENCH_MAX_FOREIGN_CPU CPUs busy
        // is repeated (at most twice); the least disturbed attempt counts.
        let best;
        for (let attempt = 0; attempt <= config.retries; attempt++) {
          const { result, foreignCpu, storesMs, generatorMs } = await withCpuBreakdown([server.pid], () =>
            loadOnce(server, name, { seconds: config.durationS }),
          );
          const perRequest = (ms) => (result.ok > 0 ? ms / result.ok : NaN);
          if (!best || foreignCpu < best.foreignCpu) {
            best = {
              ...result,
              foreignCpu,
              storesCpuMsPerRequest: perRequest(storesMs),
              generatorCpuMsPerRequest: perRequest(generatorMs),
              attempts: attempt + 1,
            };
          }
          if (foreignCpu <= config.maxForeignCpu) break;
          log(`  (other work used ${foreignCpu.toFixed(2)} CPUs meanwhile: repeating)`);
        }
        const r = best;
        (runs[`${server.server}:${name}`] ??= []).push(r);
        log(
          `  ${server.label.padEnd(24)} ${server.targets[name].label.padEnd(30)} ${r.rps.toFixed(0).padStart(6)} req/s  ` +
            `p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  CPU ms/req: server ${r.cpuMsPerRequest?.toFixed(3)}, ` +
            `stores ${r.storesCpuMsPerRequest.toFixed(3)}, autocannon ${r.generatorCpuMsPerRequest.toFixed(3)}; others ${r.foreignCpu.toFixed(2)} CPUs`,
        );
      }
    }
  }

  const ceilingRuns = runs['ceiling:list'] ?? [];
  const roundRatios = (a, b) => (a && b ? a.map((run, i) => run.rps / b[i].rps) : []);
  const summary = (values) => ({ median: median(values), rounds: values });
  const throughput = servers.flatMap((server) =>
    server.endpoints.map((name) => {
      const list = runs[`${server.server}:${name}`];
      return {
        server: server.server,
        label: server.label,
        endpointKey: name,
        endpoint: server.targets[name].label,
        rps: median(list.map((r) => r.rps)),
        p50: median(list.map((r) => r.p50)),
        p99: median(list.map((r) => r.p99)),
        cpuMsPerRequest: median(list.map((r) => r.cpuMsPerRequest ?? NaN)),
        storesCpuMsPerRequest: median(list.map((r) => r.storesCpuMsPerRequest)),
        generatorCpuMsPerRequest: median(list.map((r) => r.generatorCpuMsPerRequest)),
        vsCeiling: name === 'list' ? median(roundRatios(list, ceilingRuns)) : undefined,
        non2xx: list.reduce((s, r) => s + r.non2xx, 0),
        errors: list.reduce((s, r) => s + r.errors + r.timeouts, 0),
        foreignCpu: median(list.map((r) => r.foreignCpu)),
        rounds: list.map((r) => ({
          rps: r.rps,
          p50: r.p50,
          p99: r.p99,
          cpuMsPerRequest: r.cpuMsPerRequest,
          storesCpuMsPerRequest: r.storesCpuMsPerRequest,
          generatorCpuMsPerRequest: r.generatorCpuMsPerRequest,
          foreignCpu: r.foreignCpu,
          attempts: r.attempts,
        })),
      };
    }),
  );
  const ratios = {
    serviceVsPeer: byName.peer ? serviceVsPeer(runs['postgres:list'], runs['peer:list']) : undefined,
    pgListVsCeiling: pgServer ? summary(roundRatios(runs['postgres:list'], ceilingRuns)) : undefined,
    sqliteListVsCeiling: summary(roundRatios(runs['sqlite:list'], ceilingRuns)),
    limiterOnVsOff: {},
    sqliteVsPostgres: {},
  };
  if (pgServer) {
    for (const name of pgServer.endpoints) {
      ratios.limiterOnVsOff[name] = summary(roundRatios(runs[`postgres:${name}`], runs[`limiter-off:${name}`]));
      ratios.sqliteVsPostgres[name] = summary(roundRatios(runs[`sqlite:${name}`], runs[`postgres:${name}`]));
    }
  }

  if (ratios.serviceVsPeer) for (const line of serviceVsPeerLines(ratios.serviceVsPeer)) log(line);

  // --- Redis round trips per request ---------------------------------------------------------------
  const countRoundTrips = async (server, insideScript) => {
    log(`${server.label}: Redis round trips per list request (MONITOR over ${config.redisRequests} requests, then INFO commandstats)`);
    const batch = async () => (await loadOnce(server, 'list', { amount: config.redisRequests, latencies: false })).ok;
    const monitor = await monitorRoundTrips({ url: redisUrl, pid: server.pid, batch });
    const commandstats = await commandstatsRoundTrips({ url: redisUrl, batch, insideScript });
    log(`  MONITOR ${monitor.perRequest.toFixed(3)}, commandstats ${commandstats.perRequest.toFixed(3)} per request`);
    if (commandstats.perRequest > monitor.perRequest + 0.01) {
      notes.push(
        `${server.label}: INFO commandstats counted ${commandstats.perRequest.toFixed(3)} calls per request against MONITOR's ${monitor.perRequest.toFixed(3)}: ` +
          `other clients of the shared Redis were busy meanwhile (${JSON.stringify(commandstats.delta)}); the MONITOR figure only counts the server's connections.`,
      );
    }
    return { monitor, commandstats };
  };
  if (pgServer && redisVersion) {
    results.redis = await countRoundTrips(pgServer, LIMITER_SCRIPT_COMMANDS);
    if (byName.peer) results.peerRedis = await countRoundTrips(byName.peer, THROTTLER_SCRIPT_COMMANDS);
  } else {
    results.redis = { skipped: redisVersion ? 'no PostgreSQL server' : 'no Redis' };
  }

  // --- What a caller over its quota sees: the service and the usual build ----------------------------
  if (pgServer && byName.peer) {
    log('quota probes: a free key each over its minute quota, and a key whose day quota (3) is below its minute quota');
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    try {
      results.quota = await compareQuotas({
        createKey: (plan) => createKey(databaseUrl, plan),
        servers: [
          { name: 'service', base: pgServer.base, counters: serviceCounters(redis, SERVICE_PREFIX) },
          { name: 'peer', base: byName.peer.base, counters: peerCounters(redis, PEER_PREFIX) },
        ],
        free: FREE,
        smallDay: SMALL_DAY,
      });
    } finally {
      redis.disconnect();
    }
    for (const line of quotaLines(results.quota)) log(`  ${line}`);
  }

  // --- First page versus a deep page --------------------------------------------------------------
  for (const server of config.deepRequests > 0 ? [pgServer, byName.sqlite].filter(Boolean) : []) {
    const headers = server.targets.list.headers;
    const pages = {
      first: '/v1/pets?limit=20',
      deep: `/v1/pets?limit=20&cursor=${encodeCursor({ after: DEEP_AFTER, status: null })}`,
      firstStatus: '/v1/pets?limit=20&status=available',
      deepStatus: `/v1/pets?limit=20&status=available&cursor=${encodeCursor({ after: DEEP_AFTER, status: 'available' })}`,
    };
    const check = await getJson(server.base, pages.deep, headers);
    if (check.status !== 200 || !Array.isArray(check.body) || check.body.length !== 20) {
      throw new Error(
        `${server.label}: the deep page did not answer 20 animals (${check.status} ${JSON.stringify(check.body).slice(0, 200)})`,
      );
    }
    if (check.body[0]?.id !== DEEP_AFTER + 1)
      notes.push(`${server.label}: the deep page starts at id ${check.body[0]?.id}, not ${DEEP_AFTER + 1}.`);
    log(`${server.label}: first versus deep page, ${config.deepRequests} sequential requests each, alternating`);
    const samples = { first: [], deep: [], firstStatus: [], deepStatus: [] };
    const blocks = 5;
    const perBlock = Math.ceil(config.deepRequests / blocks);
    for (const path of Object.values(pages)) await sequentialLatencies({ base: server.base, path, headers, count: 50 });
    for (let block = 0; block < blocks; block++) {
      for (const [kind, path] of Object.entries(pages)) {
        samples[kind].push(...(await sequentialLatencies({ base: server.base, path, headers, count: perBlock })));
      }
    }
    const stats = (values) => {
      const sorted = values.sort((a, b) => a - b);
      return { p50: sorted[Math.floor(sorted.length * 0.5)], p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] };
    };
    const deep = {
      server: server.server,
      label: server.label,
      after: DEEP_AFTER,
      requestsEach: perBlock * blocks,
      first: stats(samples.first),
      deep: stats(samples.deep),
      firstStatus: stats(samples.firstStatus),
      deepStatus: stats(samples.deepStatus),
    };
    deep.ratio = deep.deep.p50 / deep.first.p50;
    deep.statusRatio = deep.deepStatus.p50 / deep.firstStatus.p50;
    results.deepPages.push(deep);
    log(
      `  p50 first ${deep.first.p50.toFixed(2)} ms, deep ${deep.deep.p50.toFixed(2)} ms; status first ${deep.firstStatus.p50.toFixed(2)}, deep ${deep.deepStatus.p50.toFixed(2)}`,
    );
  }

  // --- Memory over a long run -------------------------------------------------------------------
  for (const server of servers) if (server !== pgServer && server !== byName.sqlite) await stopServer(server);
  const memoryServer = pgServer ?? byName.sqlite;
  if (memoryServer !== byName.sqlite) await stopServer(byName.sqlite);
  if (config.memoryRequests > 0) {
    const marks = [];
    const chunks = Math.ceil(config.memoryRequests / config.memoryChunk);
    log(
      `memory: ${config.memoryRequests.toLocaleString('en')} list requests against ${memoryServer.label} in chunks of ${config.memoryChunk.toLocaleString('en')}`,
    );
    let total = 0;
    const memoryStarted = Date.now();
    for (let chunk = 0; chunk < chunks; chunk++) {
      const amount = Math.min(config.memoryChunk, config.memoryRequests - total);
      const r = await loadOnce(memoryServer, 'list', { amount, latencies: false });
      total += amount;
      const metrics = await fetch(`${memoryServer.base}/metrics`).then((response) => response.text());
      const heapUsed = Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(metrics)?.[1] ?? NaN);
      marks.push({ requests: total, rss: rssBytes(memoryServer.pid), heapUsed, rps: r.rps, failed: r.non2xx + r.errors + r.timeouts });
      log(
        `  ${total.toLocaleString('en')}: RSS ${(marks.at(-1).rss / 2 ** 20).toFixed(1)} MiB, heap used ${(heapUsed / 2 ** 20).toFixed(1)} MiB, ${r.rps.toFixed(0)} req/s`,
      );
    }
    const second = marks[1] ?? marks[0];
    results.memory = {
      server: memoryServer.server,
      label: memoryServer.label,
      endpoint: memoryServer.targets.list.label,
      marks,
      growth: (marks.at(-1).rss - second.rss) / second.rss,
      seconds: (Date.now() - memoryStarted) / 1000,
    };
  }
  await stopAll();

  // --- Optional CPU profile -------------------------------------------------------------------------
  let profile;
  if (config.profile && pgServer) {
    const profileDir = join(tmp, 'profile');
    mkdirSync(profileDir, { recursive: true });
    log(`profiling ${pgServer.label} under load (node --cpu-prof, ${config.profileS} s of load after 20 s of warm-up)`);
    const spawned = Date.now();
    const profiled = await startServer({
      name: `${pgServer.label} (profiled)`,
      script: pgServer.script,
      env: pgServer.env,
      nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
      readyPath: '/health/live',
      logFile: join(tmp, 'profiled.log'),
      cwd: ROOT,
    });
    const target = pgServer.targets.list;
    await load({ base: profiled.base, target, connections: config.connections, seconds: 20, latencies: false });
    const skipMs = Date.now() - spawned;
    const r = await load({ base: profiled.base, target, connections: config.connections, seconds: config.profileS, pid: profiled.pid });
    await stopServer(profiled);
    const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
    if (file) {
      const kept = join(resultsDir, 'postgres-list.cpuprofile');
      copyFileSync(join(profileDir, file), kept);
      profile = {
        ...summariseProfile(kept, { top: 25, skipMs }),
        file: 'bench/results/postgres-list.cpuprofile',
        rps: r.rps,
        cpuMsPerRequest: r.cpuMsPerRequest,
      };
      console.log(formatProfile(profile));
    } else {
      notes.push('BENCH_PROFILE: the profiled server wrote no profile.');
    }
  }

  // --- Targets --------------------------------------------------------------------------------------
  const targets = [];
  const target = (name, goal, measured, met) =>
    targets.push({ name, target: goal, measured, status: met === undefined ? 'NOT MEASURED' : met ? 'MET' : 'NOT MET' });
  const pgList = ratios.pgListVsCeiling?.median;
  target(
    'list throughput, PostgreSQL + Redis vs the ceiling',
    '≥ 0.70',
    Number.isFinite(pgList) ? pgList.toFixed(2) : 'n/a',
    Number.isFinite(pgList) ? pgList >= 0.7 : undefined,
  );
  const limiter = ratios.limiterOnVsOff.list?.median;
  target(
    'limiter cost (list throughput, limiter on vs off)',
    '≤ 10 %',
    Number.isFinite(limiter) ? `${((1 - limiter) * 100).toFixed(1)} % (on/off ${limiter.toFixed(2)})` : 'n/a',
    Number.isFinite(limiter) ? limiter >= 0.9 : undefined,
  );
  const trips = results.redis?.monitor?.perRequest;
  target(
    'Redis round trips per request',
    '1',
    Number.isFinite(trips) ? trips.toFixed(3) : 'n/a',
    Number.isFinite(trips) ? Math.abs(trips - 1) < 0.005 : undefined,
  );
  const statements = results.sql?.perRequest;
  target(
    'SQL statements per list request',
    '1 (cache refreshes every 4-5 s allowed: < 1.01)',
    Number.isFinite(statements) ? statements.toFixed(3) : 'n/a',
    Number.isFinite(statements) ? statements >= 0.995 && statements < 1.01 : undefined,
  );
  for (const deep of results.deepPages.filter((d) => d.server === 'postgres')) {
    const worst = Math.max(deep.ratio, deep.statusRatio);
    target(
      `deep page p50 vs first page p50 (${deep.label}; unfiltered and status=available)`,
      '≤ 1.5',
      `${deep.ratio.toFixed(2)} and ${deep.statusRatio.toFixed(2)}`,
      worst <= 1.5,
    );
  }
  const growth = results.memory?.growth;
  target(
    `RSS growth from the 2nd to the last ${config.memoryChunk.toLocaleString('en')}-request mark`,
    '< 10 %',
    Number.isFinite(growth) ? `${(growth * 100).toFixed(1)} %` : 'n/a',
    Number.isFinite(growth) ? growth < 0.1 : undefined,
  );

  info.loadEnd = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const report = {
    date: new Date().toISOString(),
    wallSeconds: Math.round((Date.now() - started) / 1000),
    machine: info,
    config,
    servers: servers.map((s) => ({ server: s.server, label: s.label, description: s.description })),
    seeds,
    throughput,
    ratios,
    ...results,
    profile,
    targets,
    notes,
  };
  printReport(report);
  await writeResults(report, {
    jsonFile: join(resultsDir, 'latest.json'),
    docsMarkdown: config.writeDocs ? join(ROOT, 'docs', 'benchmarks.md') : undefined,
    docsJson: config.writeDocs ? join(ROOT, 'docs', 'benchmarks.json') : undefined,
  });
  log(
    `wrote bench/results/latest.json${config.writeDocs ? ', docs/benchmarks.json and docs/benchmarks.md' : ''}; ` +
      `${(report.wallSeconds / 60).toFixed(1)} min in all`,
  );
  return report;
}

main().catch((error) => {
  console.error(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});
