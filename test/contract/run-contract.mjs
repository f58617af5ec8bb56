// Contract run: `npm run test:contract` (builds first).
//
// 1. Starts the built service (`node dist/src/main.js`) twice on its embedded defaults, each in a
//    temporary folder (its embedded PostgreSQL) and on a free port: the main instance, and one whose
//    GET_PET_SUNSET is in the past so `getPet` answers 410. Each prints its development key on first start.
// 2. Puts a Prism proxy (`prism proxy <reference openapi.yaml> <service>/v1 --errors=false`) in
//    front of each, and sends a scripted set of requests through it that reaches every response
//    code the reference documents and one instance can produce today. Prism validates every
//    response against the reference contract and reports what does not conform in the
//    `sl-violations` response header (and in its log, which is checked as well).
// 3. Lints the generated `openapi.json` with Spectral (`.spectral.mjs`: spectral:oas + OWASP).
//
// Fails (exit 1) on any RESPONSE violation, on a status (or error code) other than expected, on a
// response that did not come from the service, or on a Spectral error. Request violations are
// expected for the deliberately bad requests and only reported. Child processes are always stopped.
/* global fetch, AbortSignal */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { embeddedWorkdir, removeEmbeddedWorkdir } from '../support/embedded-default.mjs';
import { freePort, start, stopAll, stripAnsi } from './processes.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const REFERENCE = resolve(ROOT, 'docs/contract/openapi.yaml');
const PRISM = join(ROOT, 'node_modules/.bin/prism');
const SPECTRAL = join(ROOT, 'node_modules/.bin/spectral');
const KEY_PATTERN = /pets_[A-Za-z0-9]{38}/;
const REQUEST_TIMEOUT_MS = 15_000;

/** Every response of the service carries the quota headers (docs/contract/decisions.md, "Rate limiting"). */
const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit-policy', 'ratelimit'];

/** Documented codes one instance cannot be made to answer today: listed, and skipped on purpose. */
const SKIPPED = [
  {
    operations: 'createPet',
    status: 409,
    reason: 'needs a retry to arrive while the first request with its Idempotency-Key still runs; not timeable from outside',
  },
  {
    operations: 'listPets, createPet, getPet',
    status: 500,
    reason: 'needs an unexpected failure inside the service; nothing triggers one from outside',
  },
  {
    operations: 'listPets, createPet, getPet',
    status: 503,
    reason: 'needs the database to vanish under a running instance (test/database/database.postgres.int-spec.ts cuts it)',
  },
];

const json = (value) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });
const bearer = (key) => ({ authorization: `Bearer ${key}` });
// Well formed, but its checksum is wrong: refused as invalid without touching the database.
const UNKNOWN_KEY = `pets_${'A'.repeat(38)}`;

/**
 * The scripted requests, in order. `path` may depend on earlier answers (`ctx`). `via: 'prism-http'`
 * marks the one request Prism's proxy server cannot forward (see `viaPrismHttp`).
 */
function scenario(ctx) {
  const { key, sunsetKey } = ctx;
  const auth = bearer(key);
  const createPet = (name, request, expect, extra = {}) => ({
    operation: 'createPet',
    name,
    method: 'POST',
    path: '/pets',
    ...request,
    expect,
    ...extra,
  });
  const withAuth = (request) => ({ ...request, headers: { ...auth, ...request.headers } });
  return [
    createPet('valid body', withAuth(json({ name: 'Rex', categoryId: 1 })), 201, {
      check: (res, body) => {
        ctx.petId = body?.id;
        return res.headers.location ? undefined : 'no Location header';
      },
    }),
    createPet('valid body, status pending', withAuth(json({ name: 'Bella', categoryId: 2, status: 'pending' })), 201),
    createPet('valid body, status sold', withAuth(json({ name: 'Milo', categoryId: 1, status: 'sold' })), 201),
    createPet('missing fields', withAuth(json({})), 400, { code: 'validation_failed' }),
    createPet('missing categoryId', withAuth(json({ name: 'Rex' })), 400, { code: 'validation_failed' }),
    createPet('unknown property (id)', withAuth(json({ id: 7, name: 'Rex', categoryId: 1 })), 400, { code: 'validation_failed' }),
    createPet('invalid value (status)', withAuth(json({ name: 'Rex', categoryId: 1, status: 'adopted' })), 400, {
      code: 'validation_failed',
    }),
    createPet('malformed JSON', withAuth({ headers: { 'content-type': 'application/json' }, body: '{"name": "Rex", ' }), 400, {
      code: 'malformed_json',
      via: 'prism-http',
    }),
    createPet('no API key', json({ name: 'Rex', categoryId: 1 }), 401, { code: 'missing_api_key' }),
    createPet(
      'unknown API key',
      { ...json({ name: 'Rex', categoryId: 1 }), headers: { ...bearer(UNKNOWN_KEY), 'content-type': 'application/json' } },
      401,
      {
        code: 'invalid_api_key',
      },
    ),
    createPet('body over 16kb', withAuth(json({ name: 'x'.repeat(17 * 1024), categoryId: 1 })), 413, { code: 'payload_too_large' }),
    createPet(
      'Idempotency-Key reused with another body',
      withAuth({
        ...json({ name: 'Luna', categoryId: 3 }),
        headers: { 'content-type': 'application/json', 'idempotency-key': 'contract-reuse' },
      }),
      422,
      {
        code: 'idempotency_key_reused',
        before: async (target) => {
          await fetch(`${target.upstream}/pets`, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'contract-reuse' },
            body: JSON.stringify({ name: 'Luna', categoryId: 2 }),
            signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
          });
        },
      },
    ),
    createPet('text/plain body', withAuth({ headers: { 'content-type': 'text/plain' }, body: 'Rex' }), 415, {
      code: 'unsupported_media_type',
    }),

    { operation: 'listPets', name: 'all', method: 'GET', path: '/pets', headers: auth, expect: 200 },
    { operation: 'listPets', name: 'status=available', method: 'GET', path: '/pets?status=available', headers: auth, expect: 200 },
    {
      operation: 'listPets',
      name: 'limit=1 (first page)',
      method: 'GET',
      path: '/pets?limit=1',
      headers: auth,
      expect: 200,
      check: (res) => {
        const next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.link ?? '');
        if (!next) return 'no Link rel="next" header';
        ctx.nextPage = new URL(next[1]).search;
        return undefined;
      },
    },
    { operation: 'listPets', name: 'next page (Link)', method: 'GET', path: () => `/pets${ctx.nextPage}`, headers: auth, expect: 200 },
    {
      operation: 'listPets',
      name: 'limit=100 (last page)',
      method: 'GET',
      path: '/pets?limit=100',
      headers: auth,
      expect: 200,
      check: (res) => (/rel="next"/.test(res.headers.link ?? '') ? 'a next link on the last page' : undefined),
    },
    { operation: 'listPets', name: 'limit=0', method: 'GET', path: '/pets?limit=0', headers: auth, expect: 400, code: 'validation_failed' },
    {
      operation: 'listPets',
      name: 'limit=abc',
      method: 'GET',
      path: '/pets?limit=abc',
      headers: auth,
      expect: 400,
      code: 'validation_failed',
    },
    {
      operation: 'listPets',
      name: 'limit=101',
      method: 'GET',
      path: '/pets?limit=101',
      headers: auth,
      expect: 400,
      code: 'validation_failed',
    },
    {
      operation: 'listPets',
      name: 'status=adopted',
      method: 'GET',
      path: '/pets?status=adopted',
      headers: auth,
      expect: 400,
      code: 'validation_failed',
    },
    {
      operation: 'listPets',
      name: 'unknown parameter limt',
      method: 'GET',
      path: '/pets?limt=5',
      headers: auth,
      expect: 400,
      code: 'validation_failed',
    },
    {
      operation: 'listPets',
      name: 'tampered cursor',
      method: 'GET',
      path: '/pets?cursor=bm90LWEtY3Vyc29y.AAAAAAAAAA',
      headers: auth,
      expect: 400,
      code: 'validation_failed',
    },
    { operation: 'listPets', name: 'no API key', method: 'GET', path: '/pets', headers: {}, expect: 401, code: 'missing_api_key' },
    {
      operation: 'listPets',
      name: 'unknown API key',
      method: 'GET',
      path: '/pets',
      headers: bearer(UNKNOWN_KEY),
      expect: 401,
      code: 'invalid_api_key',
    },

    { operation: 'getPet', name: 'existing id', method: 'GET', path: () => `/pets/${ctx.petId}`, headers: auth, expect: 200 },
    { operation: 'getPet', name: 'petId=abc', method: 'GET', path: '/pets/abc', headers: auth, expect: 400, code: 'validation_failed' },
    { operation: 'getPet', name: 'petId=0', method: 'GET', path: '/pets/0', headers: auth, expect: 400, code: 'validation_failed' },
    {
      operation: 'getPet',
      name: 'no API key',
      method: 'GET',
      path: () => `/pets/${ctx.petId}`,
      headers: {},
      expect: 401,
      code: 'missing_api_key',
    },
    {
      operation: 'getPet',
      name: 'unknown API key',
      method: 'GET',
      path: () => `/pets/${ctx.petId}`,
      headers: bearer(UNKNOWN_KEY),
      expect: 401,
      code: 'invalid_api_key',
    },
    { operation: 'getPet', name: 'unknown id', method: 'GET', path: '/pets/999999', headers: auth, expect: 404, code: 'not_found' },
    {
      operation: 'getPet',
      name: 'past its sunset',
      instance: 'sunset',
      method: 'GET',
      path: '/pets/1',
      headers: bearer(sunsetKey),
      expect: 410,
      code: 'endpoint_removed',
    },

    // Callers without a key get the free plan's 60 requests a minute per address: spend them directly
    // (not through Prism), then every operation answers 429 with Retry-After. The minute window is
    // UTC-aligned, so start early in a minute: the three refusals must fall in the window that was spent.
    {
      operation: 'listPets',
      name: 'over the anonymous quota',
      instance: 'sunset',
      method: 'GET',
      path: '/pets',
      expect: 429,
      code: 'rate_limit_exceeded',
      before: async (target) => {
        await startOfFreshMinute();
        for (let i = 0; i < 60; i++) await fetch(`${target.upstream}/pets`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      },
      check: (res) => (Number(res.headers['retry-after']) >= 1 ? undefined : 'no Retry-After of at least 1 s'),
    },
    {
      operation: 'createPet',
      name: 'over the anonymous quota',
      instance: 'sunset',
      ...json({ name: 'Rex', categoryId: 1 }),
      method: 'POST',
      path: '/pets',
      expect: 429,
      code: 'rate_limit_exceeded',
    },
    {
      operation: 'getPet',
      name: 'over the anonymous quota',
      instance: 'sunset',
      method: 'GET',
      path: '/pets/1',
      expect: 429,
      code: 'rate_limit_exceeded',
    },
  ];
}

/** Waits for the next UTC minute when less than 20 s of the current one remain. */
async function startOfFreshMinute() {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 20_000) await new Promise((resolveDelay) => setTimeout(resolveDelay, left + 250));
}

/** The environment of a service instance: the embedded defaults, plus what this run sets. */
function serviceEnv(overrides) {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (
      /^(PORT|HOST|NODE_ENV|DATABASE_|REDIS_|PUBLIC_BASE_URL|STAGING_BASE_URL|ALLOWED_HOSTS|TRUST_PROXY|BODY_LIMIT|AUTH_|GET_PET_|RATE_LIMIT|BAN_)/.test(
        name,
      )
    ) {
      delete env[name];
    }
  }
  return { ...env, HOST: '127.0.0.1', ...overrides };
}

async function startService(name, dir, extraEnv = {}) {
  const port = await freePort();
  // The working folder holds the embedded PostgreSQL; no readiness delay, so a stop is quick and stops it too.
  const env = serviceEnv({ PORT: String(port), SHUTDOWN_READINESS_DELAY_MS: '0', ...extraEnv });
  const main = join(ROOT, 'dist/src/main.js');
  const { match } = await start(name, process.execPath, [main], { cwd: dir, env, ready: KEY_PATTERN, timeoutMs: 30_000 });
  return { upstream: `http://127.0.0.1:${port}/v1`, key: match[0] };
}

async function startPrism(name, upstream) {
  const port = await freePort();
  const args = ['proxy', REFERENCE, upstream, '--host', '127.0.0.1', '--port', String(port), '--errors=false'];
  const { handle } = await start(name, PRISM, args, { cwd: ROOT, env: process.env, ready: /Prism is listening on/, timeoutMs: 60_000 });
  return { url: `http://127.0.0.1:${port}`, handle };
}

const SEVERITIES = ['Error', 'Warning', 'Information', 'Hint'];

/** Prism's `sl-violations` header: a JSON array, or a truncated text when it grew too long. */
function parseViolations(header) {
  if (!header) return [];
  try {
    return JSON.parse(header);
  } catch {
    // Unreadable: count it as a response violation rather than let it pass.
    return [{ location: ['response'], severity: 'Error', message: `unreadable sl-violations header: ${header.slice(0, 300)}` }];
  }
}

async function viaProxy(prismUrl, { method, path, headers, body }) {
  const response = await fetch(`${prismUrl}${path}`, { method, headers, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    text: await response.text(),
    violations: parseViolations(response.headers.get('sl-violations')),
  };
}

/**
 * Prism's proxy server parses a JSON body itself and answers `400 {"error":{"code":"invalid_json"}}`
 * without forwarding it, so malformed JSON never reaches the service through it. This sends such a
 * request through the same Prism pipeline in process instead (`@stoplight/prism-http`, the library
 * the proxy server runs, from prism-cli's own dependencies, with the proxy server's configuration):
 * the body goes upstream untouched and the answer is validated against the reference as in the proxy.
 */
async function viaPrismHttp(prismHttp, operations, upstream, { method, path, headers, body }) {
  const config = {
    isProxy: true,
    upstream: new URL(upstream),
    upstreamProxy: undefined,
    validateRequest: true,
    validateResponse: true,
    checkSecurity: true,
    errors: false,
    mock: { dynamic: false },
  };
  const silent = { child: () => silent, trace() {}, debug() {}, info() {}, success() {}, warn() {}, error() {}, fatal() {} };
  const url = new URL(path, 'http://contract.invalid');
  const input = {
    method: method.toLowerCase(),
    url: { path: url.pathname, query: Object.fromEntries(url.searchParams) },
    headers: Object.fromEntries(
      Object.entries({ ...headers, 'content-length': String(Buffer.byteLength(body ?? '')) }).map(([k, v]) => [k.toLowerCase(), v]),
    ),
    body,
  };
  const result = await prismHttp.createInstance(config, { logger: silent }).request(input, operations, config)();
  if (result._tag === 'Left') throw result.left;
  const { output, validations } = result.right;
  const prefix = (where) => (detail) => ({
    location: [where, ...(detail.path ?? [])],
    severity: SEVERITIES[detail.severity] ?? String(detail.severity),
    code: detail.code,
    message: detail.message,
  });
  const responseHeaders = Object.fromEntries(Object.entries(output.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    status: output.statusCode,
    headers: responseHeaders,
    text: typeof output.body === 'string' ? output.body : JSON.stringify(output.body),
    violations: [...validations.input.map(prefix('request')), ...validations.output.map(prefix('response'))],
  };
}

function describe(violation) {
  return `${violation.severity} ${violation.location.join('.')}: ${violation.message}`;
}

async function runScenario(ctx, targets, prismHttp) {
  const operations = await prismHttp.getHttpOperationsFromSpec(REFERENCE);
  const rows = [];
  for (const step of scenario(ctx)) {
    const target = targets[step.instance ?? 'main'];
    const request = { ...step, path: typeof step.path === 'function' ? step.path() : step.path, headers: step.headers ?? {} };
    const row = { step, request, via: step.via ?? 'proxy', problems: [] };
    rows.push(row);
    try {
      await step.before?.(target);
      const res =
        row.via === 'prism-http'
          ? await viaPrismHttp(prismHttp, operations, target.upstream, request)
          : await viaProxy(target.prism.url, request);
      let body;
      try {
        body = JSON.parse(res.text);
      } catch {
        body = undefined;
      }
      row.status = res.status;
      row.requestViolations = res.violations.filter((v) => v.location[0] !== 'response');
      row.responseViolations = res.violations.filter((v) => v.location[0] === 'response');
      if (res.status !== step.expect) row.problems.push(`expected ${step.expect}, got ${res.status}: ${res.text.slice(0, 200)}`);
      if (step.code && body?.code !== step.code) row.problems.push(`expected code ${step.code}, got ${body?.code}`);
      // Every answer of the service carries X-Request-Id; one without it came from Prism itself.
      if (!res.headers['x-request-id']) row.problems.push('answered by Prism, not by the service (no X-Request-Id)');
      const missing = RATE_LIMIT_HEADERS.filter((name) => !res.headers[name]);
      if (missing.length > 0) row.problems.push(`no ${missing.join(', ')}`);
      for (const violation of row.responseViolations) row.problems.push(`response violation: ${describe(violation)}`);
      const checked = step.check?.(res, body);
      if (checked) row.problems.push(checked);
    } catch (error) {
      row.problems.push(`request failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return rows;
}

function printSummary(rows) {
  const table = rows.map((row, index) => [
    String(index + 1),
    row.step.operation,
    `${row.request.method} ${row.request.path.length > 48 ? `${row.request.path.slice(0, 45)}...` : row.request.path}`,
    row.step.name + (row.step.instance ? ` [${row.step.instance} instance]` : ''),
    row.via,
    String(row.step.expect),
    String(row.status ?? '-'),
    String(row.requestViolations?.length ?? '-'),
    String(row.responseViolations?.length ?? '-'),
    row.problems.length === 0 ? 'ok' : 'FAIL',
  ]);
  const header = ['#', 'operation', 'request', 'case', 'via', 'expected', 'status', 'req.viol', 'resp.viol', 'result'];
  const widths = header.map((title, column) => Math.max(title.length, ...table.map((cells) => cells[column].length)));
  const line = (cells) => cells.map((cell, column) => cell.padEnd(widths[column])).join('  ');
  console.log(`\n${line(header)}\n${widths.map((width) => '-'.repeat(width)).join('  ')}`);
  for (const cells of table) console.log(line(cells));

  console.log('\nSkipped on purpose (documented, but one instance cannot produce them today):');
  for (const skip of SKIPPED) console.log(`  ${skip.status}  ${skip.operations}: ${skip.reason}`);

  const failed = rows.filter((row) => row.problems.length > 0);
  for (const row of failed) {
    console.log(`\nFAIL ${row.step.operation} ${row.request.method} ${row.request.path} (${row.step.name}):`);
    for (const problem of row.problems) console.log(`  - ${problem}`);
  }
  const expected = rows.filter((row) => row.requestViolations?.length);
  if (expected.length > 0) {
    console.log('\nRequest violations (expected for the deliberately bad requests, not failures):');
    for (const row of expected)
      console.log(`  ${row.step.operation} ${row.step.name}: ${row.requestViolations.map((v) => v.message).join('; ')}`);
  }
  return failed.length;
}

/** Prism also logs each violation ("Violation: response..."): none may appear for the proxied requests. */
function loggedResponseViolations(prism) {
  return stripAnsi(prism.handle.stdout)
    .split('\n')
    .filter((entry) => /Violation: response/.test(entry));
}

function lintDocument() {
  console.log('\nSpectral: lint openapi.json with .spectral.mjs (spectral:oas + OWASP)');
  const result = spawnSync(SPECTRAL, ['lint', 'openapi.json', '--ruleset', '.spectral.mjs', '--fail-severity', 'error'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.error) console.log(`Spectral could not run: ${result.error.message}`);
  return result.status === 0;
}

async function main() {
  const prismHttp = createRequire(import.meta.url)('@stoplight/prism-http');
  const dirs = [await embeddedWorkdir('pets-contract-'), await embeddedWorkdir('pets-contract-sunset-')];
  let failures = 0;
  try {
    const [main, sunset] = await Promise.all([
      startService('service', dirs[0]),
      startService('service (sunset passed)', dirs[1], {
        GET_PET_DEPRECATED_AT: '2020-01-01T00:00:00Z',
        GET_PET_SUNSET: new Date(Date.now() - 60_000).toISOString(),
      }),
    ]);
    const [mainPrism, sunsetPrism] = await Promise.all([startPrism('prism', main.upstream), startPrism('prism (sunset)', sunset.upstream)]);
    console.log(
      `Service ${main.upstream} behind Prism ${mainPrism.url}; sunset instance ${sunset.upstream} behind Prism ${sunsetPrism.url}`,
    );
    console.log(`Reference contract: ${REFERENCE}`);

    const ctx = { key: main.key, sunsetKey: sunset.key };
    const targets = { main: { ...main, prism: mainPrism }, sunset: { ...sunset, prism: sunsetPrism } };
    const rows = await runScenario(ctx, targets, prismHttp);
    failures += printSummary(rows);

    await new Promise((resolveDelay) => setTimeout(resolveDelay, 300)); // let Prism flush its log
    const logged = [mainPrism, sunsetPrism].flatMap(loggedResponseViolations);
    if (logged.length > 0) {
      failures += 1;
      console.log(`\nFAIL Prism logged ${logged.length} response violation(s):\n  ${logged.join('\n  ')}`);
    }
    const totalResponseViolations = rows.reduce((sum, row) => sum + (row.responseViolations?.length ?? 0), 0);
    console.log(
      `\n${rows.length} requests, ${rows.length - rows.filter((row) => row.problems.length).length} as expected; ` +
        `${totalResponseViolations} response violation(s) in headers, ${logged.length} in Prism's log; ${SKIPPED.length} codes skipped.`,
    );
  } catch (error) {
    failures += 1;
    console.error(`\nContract run aborted: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await stopAll();
    await Promise.all(dirs.map(removeEmbeddedWorkdir));
  }

  if (!lintDocument()) failures += 1;
  console.log(failures === 0 ? '\nContract run passed.' : `\nContract run FAILED (${failures} problem(s)).`);
  return failures === 0 ? 0 : 1;
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    void stopAll(1_000).finally(() => process.exit(1));
  });
}

process.exitCode = await main();
