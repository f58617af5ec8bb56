#!/usr/bin/env node
// The benchmark: `npm run bench` (builds first). In one run on this machine it starts each server
// as its own process, loads them over loopback with autocannon in alternating short rounds
// (every server on one endpoint in turn, then the next endpoint, round after round, so drift and
// neighbours affect all alike), records the CPU each request costs the server, PostgreSQL and
// Redis and the load generator, and measures Redis round trips
// and SQL statements per request, first versus deep pages of 1,000,000 animals, and resident
// memory over a 500,000-request run. It prints a table and the targets (MET / NOT MET), and writes
// bench/results/latest.json, docs/benchmarks.json, the chart docs/benchmarks.svg (list req/s and p99
// per server; `npm run bench:chart` redraws it and the section from docs/benchmarks.json) and the
// generated section of docs/benchmarks.md.
// It exits 0 unless the harness itself fails: missing a target is a finding, not an error.
// This file reads the knobs below, prepares the stores, keys and seeds, builds the ladder's steps,
// starts the servers and runs the phases of bench/phases/ in order (SQL statements, throughput rounds,
// Redis round trips, quota probes, first vs deep page, memory, CPU profile, writing the results); the
// helpers are in bench/lib/.
//
//   A  ceiling: bench/ceiling, a bare NestJS Express app serving a fixed 20-animal array, on the
//      service's Express adapter (src/common/http/express-prototypes.adapter.ts)
//   A2 the same ceiling on Fastify (@nestjs/platform-fastify): what Express itself costs
//   A3 the same ceiling on the HTTP server Nest's ExpressAdapter creates: what the service's adapter saves
//   B  the service on PostgreSQL + Redis (the limiter in Redis)
//   C  the service on its embedded defaults: a SQLite file in a temp dir, in-process limiter
//   D  B with RATE_LIMIT_ENABLED=false, so the limiter's own cost is a ratio
//   P  the usual build: bench/peers/usual-build, the list endpoint built the common NestJS way
//      (bearer guard, Repository.find, ValidationPipe, @nestjs/throttler with minute and day
//      throttlers in Redis) on B's database and Redis, loaded on the list next to B; the
//      service / peer ratios are printed per round. Its Redis round trips are counted as B's, and
//      both are driven over a free plan's minute quota to compare what a refused caller sees.
//   L1… the ladder (BENCH_LADDER below): B as earlier commits build it, loaded right before B
//   Every other round loads the servers in the reverse order (bench/lib/round-order.mjs).
//
// Environment (defaults in brackets):
//   DATABASE_URL             PostgreSQL of B and D [postgres://postgres@127.0.0.1:5432/pets_bench,
//                            created if missing, its pets table reseeded on every run]
//   REDIS_URL                Redis of B and D [redis://127.0.0.1:6379 when it answers]
//   BENCH_DURATION_S [5]     one round of one server and endpoint
//   BENCH_ROUNDS [5]         alternating rounds
//   BENCH_CONNECTIONS [50]   autocannon connections (the setup issue 10 was measured with)
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
//   BENCH_LADDER ['']        earlier states of the service to load beside B, oldest first, as
//                            comma-separated <git-rev>=<label> (`b80dfde=before,HEAD~2=+page cache`):
//                            each is checked out with `git worktree add --detach` in the run's temp
//                            dir (this checkout's node_modules linked in), built with
//                            `tsc -p tsconfig.build.json` and run as B at that commit (B's database,
//                            Redis, key and endpoints, its own Redis key prefix) next to B in
//                            every round (right before it, or after it in reversed rounds); the
//                            report's "what each change bought" shows each step and B against the
//                            step before and against P. The worktrees are removed
//                            when the run ends. Empty: not run (the report says how)
//   BENCH_WRITE_DOCS [1]     0: write only bench/results/latest.json and its chart latest.svg
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKey } from './lib/keys.mjs';
import { whatEachChangeBought } from './lib/ladder-summary.mjs';
import { ladderDefinitions, parseLadder, withLadder } from './lib/ladder.mjs';
import { log } from './lib/log.mjs';
import { machine } from './lib/machine.mjs';
import { ROOT } from './lib/paths.mjs';
import { run, stopAll, stopServer } from './lib/processes.mjs';
import { serverDefinitions, startServers } from './lib/servers.mjs';
import { prepareStores } from './lib/stores.mjs';
import { removeCheckouts } from './lib/worktrees.mjs';
import { profileService } from './phases/cpu-profile.mjs';
import { measureDeepPages } from './phases/deep-pages.mjs';
import { measureMemory } from './phases/memory.mjs';
import { probeQuotas } from './phases/quota-probe.mjs';
import { measureRedisRoundTrips } from './phases/redis-round-trips.mjs';
import { measureSqlStatements } from './phases/sql-statements.mjs';
import { measureThroughput } from './phases/throughput.mjs';
import { writeReport } from './phases/write-results.mjs';
import { seedPets } from './seed-pets.mjs';

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
  connections: intEnv('BENCH_CONNECTIONS', 50),
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
  ladder: parseLadder(process.env.BENCH_LADDER ?? ''),
  writeDocs: process.env.BENCH_WRITE_DOCS !== '0',
};
const stores = {
  databaseUrl: process.env.DATABASE_URL || DEFAULT_DATABASE_URL,
  databaseGiven: Boolean(process.env.DATABASE_URL),
  redisUrl: process.env.REDIS_URL || DEFAULT_REDIS_URL,
  redisGiven: Boolean(process.env.REDIS_URL),
};

const started = Date.now();

async function main() {
  const tmp = mkdtempSync(join(tmpdir(), 'pets-bench-'));
  const resultsDir = join(ROOT, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  // The servers first (some run from the ladder's worktrees), then the worktrees, then the temp dir.
  const cleanUp = async () => {
    await stopAll();
    await removeCheckouts();
    rmSync(tmp, { recursive: true, force: true });
  };
  let interrupted = false;
  const onSignal = (signal) => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: stopping the servers and cleaning up`);
    void cleanUp().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    return await bench(tmp, resultsDir);
  } finally {
    await cleanUp();
  }
}

/** Seeds `config.seedCount` animals into SQLite and, when it runs, PostgreSQL (reset only if it is ours). */
async function seedDatabases({ sqliteUrl, postgres, databaseUrl, databaseGiven }) {
  const seeds = {};
  log(`seeding ${config.seedCount.toLocaleString('en')} animals into SQLite`);
  seeds.sqlite = await seedPets({ url: sqliteUrl, count: config.seedCount, reset: true });
  log(`  ${(seeds.sqlite.ms / 1000).toFixed(1)} s`);
  if (postgres) {
    log(
      `seeding ${config.seedCount.toLocaleString('en')} animals into PostgreSQL${databaseGiven ? ' (top-up only: the database was given)' : ' (reset)'}`,
    );
    seeds.postgres = await seedPets({ url: databaseUrl, count: config.seedCount, reset: !databaseGiven });
    log(`  ${(seeds.postgres.ms / 1000).toFixed(1)} s`);
  }
  return seeds;
}

async function bench(tmp, resultsDir) {
  log(`config: ${JSON.stringify(config)}`);
  const notes = [];
  const { databaseUrl, redisUrl } = stores;

  // --- Stores, builds, keys, seeds -----------------------------------------------------------------
  const { postgres, redisVersion } = await prepareStores({ ...stores, notes });
  const sqliteUrl = `sqlite:${join(tmp, 'pets.sqlite')}`;
  const info = await machine(postgres?.version, redisVersion);
  for (const project of ['bench/ceiling', 'bench/peers/usual-build']) {
    log(`building ${project} (tsc -p ${project}/tsconfig.json)`);
    await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', `${project}/tsconfig.json`], { cwd: ROOT });
  }
  log('creating enterprise keys with the CLI (which also applies the migrations)');
  const sqliteKey = (await createKey(sqliteUrl)).key;
  const pgKey = postgres ? (await createKey(databaseUrl)).key : undefined;
  const seeds = await seedDatabases({ sqliteUrl, postgres, databaseUrl, databaseGiven: stores.databaseGiven });

  // --- Servers and phases, in order ------------------------------------------------------------------
  const definitions = serverDefinitions({
    postgres: Boolean(postgres),
    redisUrl: redisVersion ? redisUrl : undefined,
    databaseUrl,
    sqliteUrl,
    pgKey,
    sqliteKey,
    // An existing animal for GET /v1/pets/{id}.
    petId: Math.ceil(config.seedCount / 2),
  });
  const pgDefinition = definitions.find((d) => d.server === 'postgres');
  if (config.ladder.length > 0 && !pgDefinition) notes.push('BENCH_LADDER: not run (its steps run as B, which needs PostgreSQL)');
  const ladder = pgDefinition ? await ladderDefinitions({ steps: config.ladder, repo: ROOT, service: pgDefinition, tmp }) : [];
  const sql = await measureSqlStatements({ definition: pgDefinition, databaseUrl, tmp, config });

  const servers = await startServers(withLadder(definitions, ladder), tmp);
  const byName = Object.fromEntries(servers.map((s) => [s.server, s]));
  const pgServer = byName.postgres;
  const { throughput, ratios } = await measureThroughput({ servers, config });
  const { redis, peerRedis } = await measureRedisRoundTrips({
    service: pgServer,
    peer: byName.peer,
    redisUrl,
    redisVersion,
    config,
    notes,
  });
  const quota = pgServer && byName.peer ? await probeQuotas({ service: pgServer, peer: byName.peer, databaseUrl, redisUrl }) : undefined;
  const deepPages = await measureDeepPages({ servers: [pgServer, byName.sqlite].filter(Boolean), config, notes });

  // The memory run has its server to itself.
  const memoryServer = pgServer ?? byName.sqlite;
  for (const server of servers) if (server !== memoryServer) await stopServer(server);
  const memory = await measureMemory({ server: memoryServer, config });
  await stopAll();

  const profile =
    config.profile && pgDefinition ? await profileService({ server: pgDefinition, tmp, resultsDir, config, notes }) : undefined;

  return writeReport({
    started,
    machine: info,
    config,
    servers,
    seeds,
    measured: {
      throughput,
      ratios,
      ladder: whatEachChangeBought(throughput, ladder),
      sql,
      redis,
      peerRedis,
      quota,
      deepPages,
      memory,
      profile,
    },
    notes,
    resultsDir,
  });
}

main().catch((error) => {
  console.error(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});
