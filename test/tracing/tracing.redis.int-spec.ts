import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { displayPrefix, generateApiKey, hashApiKey } from '../../src/modules/auth/api-key.format.js';
import { OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';
import { emptyDatabase } from '../support/test-databases.js';
import { freePort, ServiceProcess } from '../support/service-process.js';

/**
 * Issue 23's proof against a real receiver: the BUILT service (`node dist/src/main.js`) on the
 * PostgreSQL named by DATABASE_URL and the Redis named by REDIS_URL, exporting over OTLP/HTTP to a
 * receiver on loopback (test/support/otlp-receiver.ts). Each request's trace is read back from what
 * the receiver decoded: its tree, the parent the caller's `traceparent` named, the attributes, and no
 * credential anywhere.
 */
/** A database of this suite's own (test/support/test-databases.ts). */
const DATABASE_URL = await emptyDatabase();
const REDIS_URL = process.env.REDIS_URL;
const STOP_BOUND_MS = 15_000;
const SERVER = 2;
/** A test starts a replica or makes keys with the command-line tool, then waits for batched spans: slow on a busy machine, never skipped. */
jest.setTimeout(120_000);

beforeAll(() => {
  if (!REDIS_URL)
    throw new Error('REDIS_URL must name a Redis server: the tracing suite runs the service on PostgreSQL and Redis (CI sets both).');
});

function service(port: number, env: Record<string, string>): ServiceProcess {
  return new ServiceProcess(port, {
    NODE_ENV: 'production',
    ALLOWED_HOSTS: '127.0.0.1',
    DATABASE_URL,
    REDIS_URL: REDIS_URL ?? '',
    REDIS_KEY_PREFIX: `tracing-${randomUUID()}:`,
    REDIS_COMMAND_TIMEOUT_MS: '2000',
    SHUTDOWN_READINESS_DELAY_MS: '0',
    LOG_LEVEL: 'info',
    ...env,
  });
}

/** An endpoint alone, as the OpenTelemetry Operator injects it: the exporter's default is otlp. */
const traced = (endpoint: string, protocol?: string) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
  OTEL_BSP_SCHEDULE_DELAY: '100',
  ...(protocol && { OTEL_EXPORTER_OTLP_PROTOCOL: protocol }),
});

/** A key made by the command-line tool, as an operator makes one. */
function newKey(...args: string[]): string {
  const result = spawnSync(process.execPath, ['dist/src/cli.js', 'keys', 'create', ...args, '--json'], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.status !== 0) throw new Error(`keys create failed: ${result.stdout}${result.stderr}`);
  return (JSON.parse(result.stdout) as { key: string }).key;
}

/** A caller's span context, as its gateway would send it. */
function caller() {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

interface Call {
  method?: 'GET' | 'POST';
  path?: string;
  key?: string;
  traceparent?: string;
  body?: unknown;
}

async function send(base: string, { method = 'GET', path = '/v1/pets?limit=5', key, traceparent, body }: Call) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(key && { Authorization: `Bearer ${key}` }),
      ...(traceparent && { traceparent }),
      ...(body !== undefined && { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: response.status, requestId: response.headers.get('x-request-id')!, body: (await response.json()) as { code?: string } };
}

const isServer = (span: ReceivedSpan) => span.kind === SERVER;
const statementOf = (span: ReceivedSpan) => (span.attributes['db.query.text'] ?? '') as string;
const isQuery = (pattern: RegExp) => (span: ReceivedSpan) => pattern.test(statementOf(span));
const named = (name: string) => (span: ReceivedSpan) => span.name === name;
const isRedis = (command: string) => (span: ReceivedSpan) => span.name === command && span.attributes['db.system.name'] === 'redis';
const isPg = (span: ReceivedSpan) => span.attributes['db.system.name'] === 'postgresql';
const requestIdOf = (span: ReceivedSpan) => (span.attributes['http.response.header.x-request-id'] as string[] | undefined)?.[0];

/** The request's server span and its descendants, once every part `expected` names has arrived. */
async function treeOf(receiver: OtlpReceiver, traceId: string, expected: Array<(span: ReceivedSpan) => boolean>) {
  const spans = await receiver.trace(traceId, (arrived) => [isServer, ...expected].every((part) => arrived.some(part)), 20_000);
  const server = spans.find(isServer)!;
  const parentOf = (span: ReceivedSpan) => spans.find((other) => other.spanId === span.parentSpanId);
  const under = (span: ReceivedSpan, ancestor: ReceivedSpan): boolean => {
    const parent = parentOf(span);
    return parent !== undefined && (parent === ancestor || under(parent, ancestor));
  };
  const one = (part: (span: ReceivedSpan) => boolean) => {
    const found = spans.filter(part);
    expect(found.length).toBeGreaterThan(0);
    return found[0];
  };
  return { spans, server, parentOf, under, one };
}

/** The request's server span: the caller's span as its parent, named by route template, with `attributes`. */
function expectServerSpan(server: ReceivedSpan, from: ReturnType<typeof caller>, name: string, attributes: Record<string, unknown>): void {
  expect(server.parentSpanId).toBe(from.spanId);
  expect(server.traceId).toBe(from.traceId);
  expect(server.name).toBe(name);
  expect(server.attributes).toEqual(expect.objectContaining({ 'http.route': name.split(' ')[1], ...attributes }));
}

/** The server span a request without `traceparent` made: found by the X-Request-Id it answered with. */
async function serverSpanOfRequest(receiver: OtlpReceiver, requestId: string): Promise<ReceivedSpan> {
  for (const started = performance.now(); performance.now() - started < 20_000; await new Promise((resolve) => setTimeout(resolve, 50))) {
    const span = receiver.spans.find((candidate) => isServer(candidate) && requestIdOf(candidate) === requestId);
    if (span) return span;
  }
  throw new Error(`no server span with x-request-id ${requestId}`);
}

/** The service's request log line for a request (JSON, production mode): it is written as the response finishes. */
async function logLineOf(replica: ServiceProcess, requestId: string): Promise<Record<string, unknown>> {
  for (const started = performance.now(); performance.now() - started < 10_000; await new Promise((resolve) => setTimeout(resolve, 50))) {
    const line = replica
      .log()
      .split('\n')
      .filter((text) => text.startsWith('{'))
      .map((text) => JSON.parse(text) as { req?: { id?: string } })
      .find((entry) => entry.req?.id === requestId);
    if (line) return line;
  }
  throw new Error(`no request log line for ${requestId} in:\n${replica.log()}`);
}

describe('tracing on: the built service exports its spans to an OTLP/HTTP receiver (JSON) (integration, PostgreSQL + Redis)', () => {
  const receiver = new OtlpReceiver();
  let replica: ServiceProcess;
  const keys: string[] = [];
  const issue = (...args: string[]) => {
    const key = newKey(...args);
    keys.push(key);
    return key;
  };

  beforeAll(async () => {
    const endpoint = await receiver.start();
    replica = service(await freePort(), traced(endpoint, 'http/json'));
    await replica.start();
  }, 60_000);
  afterAll(async () => {
    await replica?.stop(STOP_BOUND_MS);
    await receiver.close();
  });

  it("continues the caller's trace on a list: the server span named by route, the quota decision, the key lookup, Redis and PostgreSQL under it", async () => {
    const key = issue('--plan', 'pro', '--name', 'tracing list');
    const from = caller();
    const answer = await send(replica.url, { key, traceparent: from.traceparent });
    expect(answer.status).toBe(200);

    const { server, one, under, parentOf } = await treeOf(receiver, from.traceId, [
      named('rate_limit.decision'),
      named('api_key.lookup'),
      isRedis('evalsha'),
      isQuery(/FROM "pets"/),
    ]);
    expectServerSpan(server, from, 'GET /v1/pets', {
      'http.response.status_code': 200,
      'http.response.header.x-request-id': [answer.requestId],
      'pets.client.id': expect.any(Number),
    });
    expect(server.attributes).not.toHaveProperty('pets.error.code');

    const decision = one(named('rate_limit.decision'));
    expect(decision.parentSpanId).toBe(server.spanId);
    expect(decision.attributes).toEqual({
      'pets.rate_limit.operation': 'consume',
      'pets.rate_limit.outcome': 'admitted',
      'pets.rate_limit.plan': 'pro',
      'pets.rate_limit.store': 'redis',
    });
    const lookup = one(named('api_key.lookup'));
    expect(under(lookup, server)).toBe(true);
    expect(lookup.attributes).toEqual({ 'pets.api_key.found': true });
    expect(parentOf(one((span) => isPg(span) && parentOf(span) === lookup))).toBe(lookup);
    expect(under(one(isRedis('evalsha')), decision)).toBe(true);
    expect(under(one(isQuery(/FROM "pets"/)), server)).toBe(true);

    // The request log line joins the trace: the server span's own ids.
    expect(await logLineOf(replica, answer.requestId)).toEqual(expect.objectContaining({ trace_id: from.traceId, span_id: server.spanId }));
  });

  it('starts a new trace for a request without traceparent, and looks a cached key up without the database', async () => {
    const key = issue('--plan', 'pro', '--name', 'tracing untraced');
    const first = await send(replica.url, { key });
    const from = caller();
    const again = await send(replica.url, { key, traceparent: from.traceparent });
    expect([first.status, again.status]).toEqual([200, 200]);

    const server = await serverSpanOfRequest(receiver, first.requestId);
    expect(server.parentSpanId).toBeUndefined();
    expect(server.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(receiver.spans.filter((span) => span.traceId === server.traceId && isServer(span))).toEqual([server]);
    expect(await logLineOf(replica, first.requestId)).toEqual(
      expect.objectContaining({ trace_id: server.traceId, span_id: server.spanId }),
    );

    // The key's second use: the lookup comes from the service's cache, neither a span nor a statement.
    const { server: cached, spans } = await treeOf(receiver, from.traceId, [named('rate_limit.decision')]);
    expect(cached.parentSpanId).toBe(from.spanId);
    expect(spans.filter(named('api_key.lookup'))).toEqual([]);
    expect(spans.filter(isQuery(/FROM "api_keys"/))).toEqual([]);
  });

  it('traces a create: 201, the INSERT, and the HINCRBY of the read cache generation', async () => {
    const key = issue('--plan', 'pro', '--name', 'tracing create');
    const from = caller();
    const answer = await send(replica.url, { method: 'POST', key, traceparent: from.traceparent, body: { name: 'Traced', categoryId: 1 } });
    expect(answer.status).toBe(201);

    const { server, one, under } = await treeOf(receiver, from.traceId, [isQuery(/^INSERT INTO "?pets"?\b/), isRedis('hincrby')]);
    expectServerSpan(server, from, 'POST /v1/pets', { 'http.response.status_code': 201 });
    expect(under(one(isQuery(/^INSERT INTO "?pets"?\b/)), server)).toBe(true);
    expect(under(one(isRedis('hincrby')), server)).toBe(true);
    expect(one(named('rate_limit.decision')).attributes).toEqual(expect.objectContaining({ 'pets.rate_limit.outcome': 'admitted' }));
  });

  it.each([
    ['no key', 'missing_api_key', false],
    // Well formed but never issued: the lookup reaches the database and finds nothing.
    ['an unknown well-formed key', 'invalid_api_key', true],
  ])('traces a 401 with %s: the refusal code on the server span', async (_, code, looksUp) => {
    const key = looksUp ? generateApiKey() : undefined;
    if (key) keys.push(key);
    const from = caller();
    const answer = await send(replica.url, { key, traceparent: from.traceparent });
    expect(answer).toEqual(expect.objectContaining({ status: 401, body: expect.objectContaining({ code }) }));

    const { server, spans, one } = await treeOf(receiver, from.traceId, [
      named('rate_limit.decision'),
      ...(looksUp ? [named('api_key.lookup')] : []),
    ]);
    expectServerSpan(server, from, 'GET /v1/pets', { 'http.response.status_code': 401, 'pets.error.code': code });
    expect(server.attributes).not.toHaveProperty('pets.client.id');
    expect(one(named('rate_limit.decision')).attributes).toEqual(
      expect.objectContaining({ 'pets.rate_limit.outcome': 'admitted', 'pets.rate_limit.plan': 'anonymous' }),
    );
    if (looksUp) expect(one(named('api_key.lookup')).attributes).toEqual({ 'pets.api_key.found': false });
    else expect(spans.filter(named('api_key.lookup'))).toEqual([]);
  });

  it('traces a 403: a key without the scope the create needs', async () => {
    const key = issue('--plan', 'pro', '--name', 'tracing read-only', '--scopes', 'pets:read');
    const from = caller();
    const answer = await send(replica.url, {
      method: 'POST',
      key,
      traceparent: from.traceparent,
      body: { name: 'Refused', categoryId: 1 },
    });
    expect(answer).toEqual(expect.objectContaining({ status: 403, body: expect.objectContaining({ code: 'insufficient_scope' }) }));

    const { server, spans } = await treeOf(receiver, from.traceId, [named('rate_limit.decision')]);
    expectServerSpan(server, from, 'POST /v1/pets', {
      'http.response.status_code': 403,
      'pets.error.code': 'insufficient_scope',
      'pets.client.id': expect.any(Number),
    });
    expect(spans.filter(isQuery(/^INSERT/))).toEqual([]);
  });

  it('traces a 429 answered before routing: the server span still named by route template, the decision refused', async () => {
    const key = issue('--plan', 'free', '--name', 'tracing quota');
    let refused: { from: ReturnType<typeof caller>; answer: Awaited<ReturnType<typeof send>> } | undefined;
    // The free plan's 60 a minute, 20 at a time, then a traced request, until one is refused.
    for (let round = 0; round < 10 && !refused; round++) {
      const burst = await Promise.all(Array.from({ length: 20 }, () => send(replica.url, { key, path: '/v1/pets/1' })));
      expect(burst.filter(({ status }) => status !== 200 && status !== 404 && status !== 429)).toEqual([]);
      const from = caller();
      const answer = await send(replica.url, { key, path: '/v1/pets/1', traceparent: from.traceparent });
      if (answer.status === 429) refused = { from, answer };
    }
    expect(refused?.answer.body.code).toBe('rate_limit_exceeded');
    const { from, answer } = refused!;

    const { server, one } = await treeOf(receiver, from.traceId, [named('rate_limit.decision'), isRedis('evalsha')]);
    expectServerSpan(server, from, 'GET /v1/pets/:petId', {
      'http.response.status_code': 429,
      'pets.error.code': 'rate_limit_exceeded',
      'http.response.header.x-request-id': [answer.requestId],
    });
    expect(one(named('rate_limit.decision')).attributes).toEqual(
      expect.objectContaining({ 'pets.rate_limit.outcome': 'refused', 'pets.rate_limit.plan': 'free', 'pets.rate_limit.store': 'redis' }),
    );
    expect(await logLineOf(replica, answer.requestId)).toEqual(expect.objectContaining({ trace_id: from.traceId, span_id: server.spanId }));
  });

  it('puts no key, key hash or key prefix in any attribute or resource of any span it exported', async () => {
    // Every request above has been answered; stopping flushes what the batch still holds.
    await replica.stop(STOP_BOUND_MS);
    expect(receiver.spans.length).toBeGreaterThan(50);
    const secrets = keys.flatMap((key) => [key, hashApiKey(key), displayPrefix(key)]);
    const leaks = receiver.spans.flatMap((span) => {
      const text = JSON.stringify([span.name, span.attributes, span.resource]);
      return secrets.filter((secret) => text.includes(secret)).map((secret) => ({ span: span.name, secret }));
    });
    expect(leaks).toEqual([]);
    expect(receiver.spans[0].resource).toEqual(expect.objectContaining({ 'service.name': 'pet-adoption-service' }));
  });
});

describe('tracing with the default protocol, the state of the switch, and a bad value (integration, PostgreSQL + Redis)', () => {
  const receiver = new OtlpReceiver();
  let endpoint: string;
  let replica: ServiceProcess | undefined;

  beforeAll(async () => {
    endpoint = await receiver.start();
  });
  afterEach(async () => {
    await replica?.kill();
    replica = undefined;
  });
  afterAll(() => receiver.close());

  /** Starts a replica with `env`, sends one keyed list, stops it (which flushes any span still buffered). */
  async function oneRequest(env: Record<string, string>, traceparent?: string) {
    replica = service(await freePort(), env);
    await replica.start();
    const answer = await send(replica.url, { key: newKey('--plan', 'pro', '--name', 'tracing switch'), traceparent });
    const line = await logLineOf(replica, answer.requestId);
    await replica.stop(STOP_BOUND_MS);
    return { answer, line };
  }

  it('exports protobuf by default (no OTEL_EXPORTER_OTLP_PROTOCOL), also with OTEL_TRACES_EXPORTER=otlp named: the export requests reach the receiver with the trace', async () => {
    const from = caller();
    const { answer, line } = await oneRequest({ ...traced(endpoint), OTEL_TRACES_EXPORTER: 'otlp' }, from.traceparent);
    expect(answer.status).toBe(200);
    expect(line).toEqual(expect.objectContaining({ trace_id: from.traceId, span_id: expect.stringMatching(/^[0-9a-f]{16}$/) }));
    expect(receiver.spans).toEqual([]);
    // Not decoded here: the trace id's 16 bytes and the span's name are in the protobuf bodies as they are.
    const exported = Buffer.concat(receiver.protobufRequests);
    expect(exported.includes(Buffer.from(from.traceId, 'hex'))).toBe(true);
    expect(exported.includes(Buffer.from('GET /v1/pets'))).toBe(true);
    expect(exported.includes(Buffer.from('rate_limit.decision'))).toBe(true);
  });

  it.each([
    ['no OTEL variable', {}],
    ['an endpoint and OTEL_TRACES_EXPORTER=none', { OTEL_EXPORTER_OTLP_ENDPOINT: '<receiver>', OTEL_TRACES_EXPORTER: 'none' }],
    ['OTEL_SDK_DISABLED=true', { ...traced('<receiver>', 'http/json'), OTEL_SDK_DISABLED: 'true' }],
  ])('sends nothing and logs no trace ids with %s', async (_, env: Record<string, string>) => {
    const before = { spans: receiver.spans.length, protobuf: receiver.protobufRequests.length };
    const withEndpoint = Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value.replace('<receiver>', endpoint)]));
    const { answer, line } = await oneRequest(withEndpoint, caller().traceparent);
    expect(answer.status).toBe(200);
    expect(line).not.toHaveProperty('trace_id');
    expect(line).not.toHaveProperty('span_id');
    expect({ spans: receiver.spans.length, protobuf: receiver.protobufRequests.length }).toEqual(before);
  });

  it('stops the start on a bad OTEL value, naming it', async () => {
    replica = service(await freePort(), { ...traced(endpoint), OTEL_TRACES_EXPORTER: 'jaeger', OTEL_TRACES_SAMPLER_ARG: '2' });
    await expect(replica.start()).rejects.toThrow(/OTEL_TRACES_EXPORTER must be one of otlp, none \(got "jaeger"\)/);
    expect(replica.log()).toMatch(/OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1 \(got "2"\)/);
  });
});
