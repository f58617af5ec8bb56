// Typed-client run: `npm run test:client` (builds the service first). Proves that the client library,
// as a customer installs it, type-checks and works against the live service, and that a contract
// change breaking it fails here.
//
// 1. npm pack in client/ (its prepack generates the types from openapi.json and compiles): the tarball
//    holds dist/ (JavaScript and declarations), package.json and the README, and the package has no
//    dependency.
// 2. A scratch project installs the tarball (offline: there is nothing else to fetch) and compiles
//    pets-client.ts against it, strictly, the package's declarations checked too.
// 3. DATABASE_URL names a PostgreSQL database this run empties (pets_client in CI). Two keys are made
//    with the CLI (pro; enterprise at 2 a minute), then the built service starts on a free loopback
//    port (NODE_ENV=production, in-process limiter) and the compiled program runs against it.
//
// Exit 0 when everything passed, 1 otherwise. The service is always stopped, temporary files removed.
/* global fetch, AbortSignal */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = resolve(HERE, '../..');
const CLIENT = join(ROOT, 'client');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const READY_TIMEOUT_MS = 30_000;
const CLIENT_TIMEOUT_MS = 5 * 60_000; // the client may wait up to a minute for its quota
const USAGE_FLUSH_INTERVAL_MS = 500; // so the client reads its usage half a second after its requests
// Variables that configure the service (README, "Configuration"): never inherited by the instance under test.
const SERVICE_SETTINGS =
  /^(PORT|HOST|NODE_ENV|DATABASE_|PUBLIC_BASE_URL|STAGING_BASE_URL|ALLOWED_HOSTS|TRUST_PROXY|BODY_LIMIT|AUTH_CACHE_|GET_PET_|REDIS_|RATE_LIMIT_|USAGE_|LOG_LEVEL|CORS_ORIGINS|SHUTDOWN_)/;

class Failure extends Error {}

const children = new Set();
const temporary = [];

function cleanUp() {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
}
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    console.error(`\ntest:client: ${signal}, stopping`);
    process.exit(1); // runs cleanUp
  });
}

const step = (message) => console.log(`\n==> ${message}`);

function temporaryDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
}

/** Runs a command to its end, its output shown; a failure stops the run with `what`. */
function runOrFail(what, command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) throw new Failure(`${what} failed (exit ${result.status ?? result.signal})`);
}

function pack(dir) {
  step('npm pack in client/ (prepack: types generated from openapi.json, then compiled)');
  runOrFail('npm pack', 'npm', ['pack', '--pack-destination', dir], CLIENT);
  const [tarball] = readdirSync(dir).filter((name) => name.endsWith('.tgz'));
  const files = spawnSync('tar', ['-tzf', join(dir, tarball)], { encoding: 'utf8' })
    .stdout.trim()
    .split('\n');
  const stray = files.filter((file) => !/^package\/(package\.json|README\.md|dist\/.+\.(js|d\.ts))$/.test(file) || /\.spec\./.test(file));
  const needed = ['package/dist/index.js', 'package/dist/index.d.ts', 'package/README.md'].filter((file) => !files.includes(file));
  if (stray.length > 0 || needed.length > 0) {
    throw new Failure(`${tarball}: unexpected files ${stray.join(', ') || 'none'}; missing ${needed.join(', ') || 'none'}`);
  }
  const manifest = JSON.parse(readFileSync(join(CLIENT, 'package.json'), 'utf8'));
  if (manifest.dependencies || manifest.peerDependencies) throw new Failure('@pet-adoption/client must have no runtime dependency');
  console.log(`${tarball}: ${files.length} files, no dependency`);
  return join(dir, tarball);
}

function installAndCompile(tarball, scratch) {
  step('a scratch project: npm install the tarball, then tsc (strict) on pets-client.ts against it');
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  runOrFail('npm install of the tarball', 'npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], scratch);
  copyFileSync(join(HERE, 'pets-client.ts'), join(scratch, 'pets-client.ts'));
  // test/client/tsconfig.json's options, resolving the package from node_modules and checking its declarations.
  const tsconfig = {
    extends: join(HERE, 'tsconfig.json'),
    compilerOptions: { paths: {}, typeRoots: [join(ROOT, 'node_modules/@types')], skipLibCheck: false, noEmit: false, outDir: 'out' },
    files: ['pets-client.ts'],
  };
  writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  const result = spawnSync(process.execPath, [TSC, '-p', join(scratch, 'tsconfig.json'), '--pretty', 'false'], {
    cwd: scratch,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Failure(`pets-client.ts does not type-check against the package:\n${result.stdout}${result.stderr}`);
  console.log('no type errors');
  return join(scratch, 'out/pets-client.js');
}

async function emptyDatabase(url) {
  if (!/^postgres(ql)?:\/\//.test(url ?? '')) {
    throw new Failure('DATABASE_URL must name a PostgreSQL database this run may empty: postgres://…/pets_client');
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
  } finally {
    await client.end();
  }
}

/** The environment of the service and its CLI: ours, with none of the service's own settings inherited. */
function serviceEnv(databaseUrl, port) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !SERVICE_SETTINGS.test(name)));
  return {
    ...env,
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    PORT: String(port),
    NODE_ENV: 'production',
    ALLOWED_HOSTS: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SHUTDOWN_READINESS_DELAY_MS: '0',
    USAGE_FLUSH_INTERVAL_MS: String(USAGE_FLUSH_INTERVAL_MS),
  };
}

function createKey(dir, env, args) {
  // cwd is a temporary directory, so a developer's .env cannot reconfigure the service.
  const result = spawnSync(process.execPath, [join(ROOT, 'dist/src/cli.js'), 'keys', 'create', ...args, '--json'], {
    cwd: dir,
    env,
    encoding: 'utf8',
  });
  const key = result.status === 0 ? /"key":"(pets_[A-Za-z0-9]+)"/.exec(result.stdout)?.[1] : undefined;
  if (!key) throw new Failure(`cli keys create ${args.join(' ')} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
  console.log(`cli keys create ${args.join(' ')} --json -> key ${key.slice(0, 13)}…`);
  return key;
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

function run(command, args, options) {
  const child = spawn(command, args, options);
  children.add(child);
  child.output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk) => (child.output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk) => (child.output += chunk));
  child.exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  void child.exited.then(() => children.delete(child));
  return child;
}

async function startService(dir, env, port) {
  step(`start the service on 127.0.0.1:${port} (NODE_ENV=production, PostgreSQL from DATABASE_URL)`);
  const server = run(process.execPath, [join(ROOT, 'dist/src/main.js')], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new Failure(`the service exited before it was ready:\n${server.output}`);
    }
    const status = await fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(2_000) }).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) {
      console.log('/health/ready -> 200');
      return server;
    }
    await delay(200);
  }
  throw new Failure(`the service was not ready within ${READY_TIMEOUT_MS / 1000} s:\n${server.output}`);
}

async function stopService(server) {
  if (server.exitCode !== null || server.signalCode !== null) return;
  server.kill('SIGTERM');
  const stopped = await Promise.race([server.exited, delay(15_000).then(() => undefined)]);
  if (!stopped) server.kill('SIGKILL');
  await server.exited;
  console.log('service stopped');
}

async function runClient(program, cwd, env) {
  step('run the typed client against the service');
  const client = run(process.execPath, [program], { cwd, env, stdio: 'inherit' });
  const timer = setTimeout(() => client.kill('SIGKILL'), CLIENT_TIMEOUT_MS);
  const { code, signal } = await client.exited;
  clearTimeout(timer);
  if (code !== 0) throw new Failure(`the client failed (exit ${code}${signal ? `, ${signal}` : ''}); see its output above`);
}

async function main() {
  const databaseUrl = process.env.DATABASE_URL;
  await emptyDatabase(databaseUrl);
  const tarball = pack(temporaryDir('pets-client-pack-'));
  const scratch = temporaryDir('pets-client-scratch-');
  const program = installAndCompile(tarball, scratch);

  const dir = temporaryDir('pets-client-service-');
  const port = await freePort();
  const env = serviceEnv(databaseUrl, port);
  step('create the API keys with the CLI');
  const key = createKey(dir, env, ['--plan', 'pro', '--scopes', 'pets:read,pets:write,keys:manage']);
  const tinyKey = createKey(dir, env, ['--plan', 'enterprise', '--per-minute', '2', '--per-day', '1000']);

  const server = await startService(dir, env, port);
  try {
    await runClient(program, scratch, {
      ...process.env,
      PETS_BASE_URL: `http://127.0.0.1:${port}/v1`,
      PETS_API_KEY: key,
      PETS_TINY_KEY: tinyKey,
      PETS_USAGE_DELAY_MS: String(USAGE_FLUSH_INTERVAL_MS),
    });
  } finally {
    await stopService(server);
  }
}

try {
  await main();
  cleanUp();
  console.log('\ntest:client passed');
  process.exitCode = 0;
} catch (error) {
  cleanUp();
  console.error(`\ntest:client FAILED: ${error instanceof Failure ? error.message : (error?.stack ?? error)}`);
  process.exitCode = 1;
}
