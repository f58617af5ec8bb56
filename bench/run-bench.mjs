// The benchmark (`npm run bench`): the service against its peers (the usual NestJS build, a Fastify
// build) and the ceiling, each server its own process, loaded in interleaved slices on this machine,
// printed as markdown tables.
// BENCH_BASELINE=<git-rev> also runs that commit beside the service for an A/B. What each server is,
// the knobs and how to read the tables: docs/running-benchmarks.md.
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkOutBaseline, removeBaseline } from './lib/baseline.mjs';
import { run, stopAll } from './lib/processes.mjs';
import { ratioTable, serverTable } from './lib/report.mjs';
import { startOtlpSink } from './lib/otlp-sink.mjs';
import { summarise } from './lib/load.mjs';
import { roundPlan } from './lib/round-order.mjs';
import {
  ceilingServer,
  ENDPOINTS,
  FEATURES,
  fastifyBuildServer,
  featureServer,
  loadOnce,
  RUN_PREFIX,
  SERVERS,
  serviceServer,
  start,
  usualBuildServer,
} from './lib/servers.mjs';
import { createKey, databaseName, freshPostgres, redisVersion, removeRedisKeys, seed, subscribeEndpoints } from './lib/stores.mjs';
import { embeddedPostgres } from './lib/embedded.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SEED_COUNT = 1_000;

function intEnv(name, fallback, min = 1) {
  const raw = process.env[name] || String(fallback);
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer of at least ${min} (got "${raw}")`);
  return value;
}

function listEnv(name, allowed) {
  const values = (process.env[name] || allowed.join(',')).split(',').map((v) => v.trim());
  const unknown = values.filter((v) => !allowed.includes(v));
  if (unknown.length) throw new Error(`${name}: ${unknown.join(', ')} unknown (choose from ${allowed.join(', ')})`);
  return values;
}

function ratioEnv(name, fallback) {
  const raw = process.env[name] || String(fallback);
  const value = Number(raw);
  if (!(value > 0 && value <= 1)) throw new Error(`${name} must be a number above 0 and at most 1 (got "${raw}")`);
  return value;
}

const config = {
  rounds: intEnv('BENCH_ROUNDS', 5),
  durationS: intEnv('BENCH_DURATION_S', 5),
  slices: intEnv('BENCH_SLICES', 5),
  warmupS: intEnv('BENCH_WARMUP_S', 3, 0),
  connections: intEnv('BENCH_CONNECTIONS', 50),
  endpoints: listEnv('BENCH_ENDPOINTS', ENDPOINTS),
  servers: listEnv('BENCH_SERVERS', SERVERS),
  baseline: process.env.BENCH_BASELINE || undefined,
  features: process.env.BENCH_FEATURES ? listEnv('BENCH_FEATURES', FEATURES) : [],
  traceRatio: ratioEnv('BENCH_TRACE_RATIO', 0.1),
  webhookEndpoints: intEnv('BENCH_WEBHOOK_ENDPOINTS', 0, 0),
  databaseUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/pets_bench',
  redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
};
const want = (name) => config.servers.includes(name);
/** The embedded default's server, while the run needs it. */
let embedded;
const log = (line) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
const notes = [];
const note = (line) => {
  notes.push(line);
  log(line);
};

/** PostgreSQL (the service's database, made afresh) and Redis, when both answer; undefined after saying what is skipped. */
async function sharedStores() {
  const versions = {};
  try {
    versions.postgres = await freshPostgres(config.databaseUrl);
  } catch (error) {
    note(`PostgreSQL at ${config.databaseUrl} cannot be used (${error instanceof Error ? error.message : String(error)})`);
  }
  versions.redis = await redisVersion(config.redisUrl);
  if (!versions.redis) note(`Redis at ${config.redisUrl} does not answer`);
  if (versions.postgres && versions.redis) return versions;
  note('skipped: the service on PostgreSQL + Redis, the peers and the baseline; the embedded servers and the ceiling still run');
  return undefined;
}

/**
 * `build` as server `name` on `databaseUrl`, or on its embedded default in `workdir` (seeded through
 * `seedUrl`): migrated and given a key by its own CLI, then seeded.
 */
async function withData(build, name, where, { databaseUrl, redisUrl, workdir, seedUrl = databaseUrl }) {
  log(`${build.label} (${where}): migrations and a key by its CLI, ${SEED_COUNT.toLocaleString('en')} animals seeded`);
  const key = await createKey(build.cwd, databaseUrl, workdir);
  const petId = await seed(seedUrl, SEED_COUNT);
  const subscribed = await subscribeEndpoints(seedUrl, config.webhookEndpoints);
  if (subscribed) log(`${build.label} (${where}): ${config.webhookEndpoints} webhook endpoints subscribed to pet.created`);
  const label = `${build.label} (${where})`;
  return serviceServer({
    name,
    label,
    cwd: build.cwd,
    workdir,
    databaseUrl,
    redisUrl,
    endpoints: config.endpoints,
    key,
    petId,
    subscribed,
  });
}

/** The servers to run, in loading order, their data ready; the baseline built when asked for. */
async function prepare(tmp, versions, sinkUrl) {
  const builds = [{ label: 'service', cwd: ROOT, name: 'service', databaseUrl: config.databaseUrl }];
  if (config.baseline) {
    const dir = join(tmp, 'baseline');
    log(`BENCH_BASELINE=${config.baseline}: building it in ${dir}`);
    const commit = await checkOutBaseline(ROOT, config.baseline, dir);
    const databaseUrl = withDatabase(config.databaseUrl, `${databaseName(config.databaseUrl)}_baseline`);
    builds.push({ label: `baseline ${commit.slice(0, 7)}`, cwd: dir, name: 'baseline', databaseUrl, commit });
  }
  const definitions = want('ceiling') ? [ceilingServer(ROOT)] : [];
  const peers = [want('usual-build') && usualBuildServer, want('fastify-build') && fastifyBuildServer].filter(Boolean);
  if (versions && (want('service') || peers.length > 0)) {
    const shared = [];
    for (const build of want('service') ? builds : [builds[0]]) {
      if (build !== builds[0]) await freshPostgres(build.databaseUrl);
      shared.push(await withData(build, build.name, 'PostgreSQL + Redis', { databaseUrl: build.databaseUrl, redisUrl: config.redisUrl }));
    }
    const { databaseUrl, redisUrl } = config;
    for (const peer of peers) definitions.push(peer({ cwd: ROOT, databaseUrl, redisUrl, key: shared[0].key }));
    const tracing = { sinkUrl, ratio: config.traceRatio };
    if (want('service')) definitions.push(...shared, ...config.features.map((feature) => featureServer(shared[0], feature, tracing)));
  }
  if (want('embedded')) {
    const workdir = join(tmp, 'embedded');
    embedded = await embeddedPostgres(ROOT, workdir);
    definitions.push(await withData(builds[0], 'embedded', 'embedded', { workdir, seedUrl: embedded.url }));
    // Before issue 34 a build's embedded default was SQLite, whose driver these packages no longer hold.
    if (config.baseline) note('the baseline runs on PostgreSQL + Redis only: its embedded default may be another engine');
  }
  return { definitions, baselineCommit: builds[1]?.commit };
}

function withDatabase(url, name) {
  const next = new URL(url);
  next.pathname = `/${encodeURIComponent(name)}`;
  return next.toString();
}

/**
 * The measured rounds, each on processes of its own: a process keeps what V8 decided while warming up
 * for its whole life, which moved one server's figures by up to 30 % from run to run, so a round
 * starts every server afresh and warms each endpoint up unmeasured first. Each load is then taken in
 * `config.slices` slices, interleaved with the other servers' (round-order.mjs). Every load's
 * result, by "server:endpoint", one per round.
 */
async function measure(definitions, tmp) {
  const runs = new Map();
  const connections = config.connections;
  for (let round = 1; round <= config.rounds; round++) {
    log(`round ${round}/${config.rounds}`);
    const servers = await startAll(definitions, tmp);
    try {
      if (config.warmupS > 0) {
        for (const { server, endpoint } of roundPlan(servers, config.endpoints, round)) {
          await loadOnce(server, endpoint, { connections, seconds: config.warmupS });
        }
      }
      const sliced = new Map();
      const seconds = config.durationS / config.slices;
      for (const { server, endpoint } of roundPlan(servers, config.endpoints, round, config.slices)) {
        const key = `${server.name}:${endpoint}`;
        const slices = [...(sliced.get(key) ?? []), await loadOnce(server, endpoint, { connections, seconds })];
        sliced.set(key, slices);
        if (slices.length < config.slices) continue;
        const r = summarise(slices);
        runs.set(key, [...(runs.get(key) ?? []), r]);
        log(
          `  ${server.label} ${endpoint}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)}, p99 ${r.p99.toFixed(2)}, CPU ${r.cpu.toFixed(3)} ms`,
        );
      }
    } finally {
      await stopAll();
    }
  }
  return runs;
}

async function startAll(definitions, tmp) {
  const servers = [];
  for (const definition of definitions) servers.push(await start(definition, tmp));
  return servers;
}

/** The comparisons whose two sides both ran: the service against each peer, and each build against its baseline. */
function comparisons(servers) {
  const ran = (name) => servers.some((s) => s.name === name);
  const endpoints = config.endpoints;
  return [
    { label: 'service / usual build', a: 'service', b: 'usual-build', endpoints: ['list'], measures: ['rps', 'p50', 'p99', 'cpu'] },
    {
      label: 'service / Fastify build',
      a: 'service',
      b: 'fastify-build',
      endpoints: ['list', 'status'],
      measures: ['rps', 'p50', 'p99', 'cpu'],
    },
    { label: 'service / baseline', a: 'service', b: 'baseline', endpoints, measures: ['rps', 'cpu'] },
    { label: 'embedded / service', a: 'embedded', b: 'service', endpoints, measures: ['rps', 'cpu'] },
    { label: 'tracing on / baseline', a: 'feature-tracing', b: 'baseline', endpoints: ['list'], measures: ['rps', 'cpu'] },
    ...servers
      .filter((s) => s.on)
      .map((s) => ({
        label: `${s.name.slice('feature-'.length)} on / off`,
        a: s.on,
        b: s.off,
        endpoints: ['list'],
        measures: ['rps', 'p99', 'cpu'],
      })),
  ]
    .map((c) => ({ ...c, endpoints: c.endpoints.filter((e) => endpoints.includes(e)) }))
    .filter((c) => ran(c.a) && ran(c.b) && c.endpoints.length > 0);
}

async function header(versions, baselineCommit) {
  const git = (...args) => run('git', args, { cwd: ROOT }).then((out) => out.trim());
  const dirty = (await git('status', '--porcelain', '--untracked-files=no')) ? ' with uncommitted changes' : '';
  const cpu = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? 'unknown CPU';
  const autocannon = JSON.parse(readFileSync(join(ROOT, 'node_modules/autocannon/package.json'), 'utf8')).version;
  const knobs = Object.entries(process.env).filter(([k]) => k.startsWith('BENCH_'));
  return [
    `## Benchmark run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `- Commit ${await git('rev-parse', '--short', 'HEAD')}${dirty}${baselineCommit ? `; baseline ${baselineCommit.slice(0, 7)}` : ''}`,
    `- Machine: ${availableParallelism()} CPUs (${cpu}), Node.js ${process.version}, PostgreSQL ${versions?.postgres ?? 'not used'}, Redis ${versions?.redis ?? 'not used'}, autocannon ${autocannon}`,
    `- Load: ${config.connections} connections over loopback, ${config.rounds} rounds, each on fresh processes, of ${config.warmupS} s unmeasured then ${config.durationS} s measured per server and endpoint in ${config.slices} slices taken in turn with the other servers', every other round in reverse order; ${SEED_COUNT.toLocaleString('en')} animals seeded`,
    `- Knobs: ${knobs.map(([k, v]) => `${k}=${v}`).join(' ') || 'defaults'}`,
    ...notes.map((n) => `- Note: ${n}`),
  ].join('\n');
}

async function bench(tmp, sinkUrl) {
  const versions = want('service') || want('usual-build') || want('fastify-build') ? await sharedStores() : undefined;
  const projects = [
    want('ceiling') && 'bench/ceiling',
    config.features.length > 0 && versions && 'bench/service-without',
    want('usual-build') && versions && 'bench/peers/usual-build',
    want('fastify-build') && versions && 'bench/peers/fastify-build',
  ];
  for (const project of projects.filter(Boolean)) {
    log(`building ${project} (tsc -p ${project}/tsconfig.json)`);
    await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', `${project}/tsconfig.json`], { cwd: ROOT });
  }
  const { definitions, baselineCommit } = await prepare(tmp, versions, sinkUrl);
  if (definitions.length === 0) throw new Error('no server can run: see the notes above');
  const runs = await measure(definitions, tmp);
  const ratios = comparisons(definitions);
  const medians =
    'Median over the rounds (lowest–highest round); latencies of the 2xx answers; server CPU is user + system time of its process per answered request.';
  const perRound = 'Each ratio is taken per round, between two loads taken in interleaved slices; its median (lowest–highest).';
  console.log([await header(versions, baselineCommit), '', medians, '', serverTable(definitions, runs)].join('\n'));
  console.log(['', ratios.length ? `${perRound}\n\n${ratioTable(ratios, runs)}` : 'No ratio: each needs both of its servers.'].join('\n'));
}

async function main() {
  const tmp = mkdtempSync(join(tmpdir(), 'pets-bench-'));
  const sink = await startOtlpSink();
  const cleanUp = async () => {
    await stopAll();
    await embedded?.close();
    await sink.close();
    if (config.baseline) await removeBaseline(ROOT, join(tmp, 'baseline')).catch((error) => log(`removing the baseline: ${String(error)}`));
    await removeRedisKeys(config.redisUrl, RUN_PREFIX).catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      log(`${signal}: stopping the servers and cleaning up`);
      void cleanUp().finally(() => process.exit(130));
    });
  }
  try {
    await bench(tmp, sink.url);
    if (sink.received.requests > 0) log(`the traced server exported ${sink.received.requests} requests, ${sink.received.bytes} bytes`);
  } finally {
    await cleanUp();
  }
}

main().catch((error) => {
  console.error(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});
