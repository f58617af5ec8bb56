// Typed-client run: `npm run test:client` (builds first). Proves that a client generated from the
// published contract works against the live service, and that a contract change breaking such a
// client fails.
//
// 1. openapi-typescript: openapi.json -> test/client/generated/schema.d.ts (git-ignored).
// 2. tsc -p test/client/tsconfig.json: type-checks pets-client.ts against those types (strict) and
//    compiles it; a type error stops the run here with tsc's output.
// 3. Creates two keys with the CLI (pro; enterprise at 2 a minute) on the embedded default of a
//    temporary folder (its own PostgreSQL), starts the built service (`node dist/src/main.js`, the same
//    default, in-process limiter) on a free loopback port and waits for /health/ready.
// 4. Runs the compiled client against it; its transcript goes to stdout.
//
// Exit 0 when everything passed, 1 otherwise. The service is always stopped, temporary files removed.
/* global fetch, AbortSignal */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import openapiTS, { COMMENT_HEADER, astToString } from 'openapi-typescript';
import { embeddedWorkdir, removeEmbeddedWorkdir } from '../support/embedded-default.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = resolve(HERE, '../..');
const GENERATED = join(HERE, 'generated');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const READY_TIMEOUT_MS = 30_000;
const CLIENT_TIMEOUT_MS = 5 * 60_000; // the client may wait up to 3 minutes for its quota
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

async function generateTypes() {
  step('openapi-typescript: openapi.json -> test/client/generated/schema.d.ts');
  const ast = await openapiTS(new URL('../../openapi.json', import.meta.url));
  mkdirSync(GENERATED, { recursive: true });
  const file = join(GENERATED, 'schema.d.ts');
  writeFileSync(`${file}.${process.pid}.tmp`, COMMENT_HEADER + astToString(ast));
  renameSync(`${file}.${process.pid}.tmp`, file); // whole file or none, even with runs in parallel
}

function typeCheckAndCompile(outDir) {
  step('tsc -p test/client/tsconfig.json (strict): type-check pets-client.ts against the generated types, compile it');
  const result = spawnSync(process.execPath, [TSC, '-p', join(HERE, 'tsconfig.json'), '--outDir', outDir, '--pretty', 'false'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Failure(`the client does not type-check against openapi.json:\n${result.stdout}${result.stderr}`);
  }
  console.log('no type errors');
}

/** The environment of the service and its CLI: ours, with none of the service's own settings inherited. */
function serviceEnv(port) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !SERVICE_SETTINGS.test(name)));
  return {
    ...env,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    SHUTDOWN_READINESS_DELAY_MS: '0',
    USAGE_FLUSH_INTERVAL_MS: String(USAGE_FLUSH_INTERVAL_MS),
  };
}

function createKey(dir, env, args) {
  // cwd is the temporary directory, so a developer's .env cannot reconfigure the service.
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
  step(`start the service on 127.0.0.1:${port} (its embedded default: PostgreSQL in ${dir}/data/postgres)`);
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

async function runClient(outDir, env) {
  step('run the typed client against the service');
  const client = run(process.execPath, [join(outDir, 'pets-client.js')], { cwd: ROOT, env, stdio: 'inherit' });
  const timer = setTimeout(() => client.kill('SIGKILL'), CLIENT_TIMEOUT_MS);
  const { code, signal } = await client.exited;
  clearTimeout(timer);
  if (code !== 0) throw new Failure(`the client failed (exit ${code}${signal ? `, ${signal}` : ''}); see its output above`);
}

async function main() {
  await generateTypes();
  // Compiled inside the tree (generated/ is ignored) so that the client resolves openapi-fetch from node_modules.
  const outDir = mkdtempSync(join(GENERATED, 'out-'));
  temporary.push(outDir);
  typeCheckAndCompile(outDir);

  const dir = await embeddedWorkdir('pets-client-');
  const port = await freePort();
  const env = serviceEnv(port);
  step('create the API keys with the CLI');
  const key = createKey(dir, env, ['--plan', 'pro', '--scopes', 'pets:read,pets:write,keys:manage']);
  const tinyKey = createKey(dir, env, ['--plan', 'enterprise', '--per-minute', '2', '--per-day', '1000']);

  const server = await startService(dir, env, port);
  try {
    await runClient(outDir, {
      ...process.env,
      PETS_BASE_URL: `http://127.0.0.1:${port}/v1`,
      PETS_API_KEY: key,
      PETS_TINY_KEY: tinyKey,
      PETS_USAGE_DELAY_MS: String(USAGE_FLUSH_INTERVAL_MS),
    });
  } finally {
    await stopService(server);
    await removeEmbeddedWorkdir(dir);
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
