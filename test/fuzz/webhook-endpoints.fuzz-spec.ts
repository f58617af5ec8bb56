import type { LookupAddress } from 'node:dns';
import fc from 'fast-check';
import { ApiKeysService } from '../../src/modules/auth/index.js';
import { ClientsService } from '../../src/modules/plans/clients.service.js';
import { OutboxRepository } from '../../src/modules/webhooks/outbox.repository.js';
import { HostResolver } from '../../src/modules/webhooks/target-address.js';
import { SUBSCRIBABLE_EVENT_TYPES } from '../../src/modules/webhooks/webhook-event.js';
import { WebhookEndpointsService } from '../../src/modules/webhooks/webhook-endpoints.service.js';
import { OPERATOR } from '../support/test-app.js';
import {
  anyName,
  anyValue,
  authorizationHeader,
  contentType,
  headerValueText,
  objectText,
  petIdSegment,
  queryPairs,
  requestIdHeader,
  wireForm,
} from './support/arbitraries.js';
import {
  fuzzParameters,
  fuzzTimeout,
  outcomeOf,
  OutcomeHistogram,
  runsFor,
  startFuzzTarget,
  type FuzzTarget,
} from './support/fuzz-harness.js';
import { authKindOf, checkNoPollution, checkOutcome, checkResponse, snapshotPrototypes } from './support/properties.js';
import type { RawRequest } from './support/raw-http.js';

const OPERATIONS = 'webhook endpoints';
const AUTHORIZATION = 'webhook endpoints authorization';

/** DNS for the fuzzed hosts, with no network: two names are public, the rest private or not found. */
class FuzzResolver extends HostResolver {
  private readonly table: Record<string, string[]> = {
    'hooks.example': ['93.184.216.34'],
    'hooks.example.com': ['93.184.216.34', '2606:4700:4700::1111'],
    'internal.example': ['10.0.0.1'],
    localhost: ['127.0.0.1', '::1'],
  };

  resolve(hostname: string): Promise<LookupAddress[]> {
    const found = this.table[hostname.toLowerCase()];
    if (!found) return Promise.reject(Object.assign(new Error(`${hostname} not found`), { code: 'ENOTFOUND' }));
    return Promise.resolve(found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  }
}

/** Stand for the ids of the caller's live endpoint and of another client's in generated paths; replaced as each request goes. */
const OWN = 8_888_888_881;
const STRANGERS = 8_888_888_882;

const urlValue = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      'https://hooks.example/in',
      'http://hooks.example:8443/x?y=1',
      'https://hooks.example.com/a/b',
      'https://93.184.216.34/in',
    ),
    weight: 6,
  },
  {
    arbitrary: fc.constantFrom(
      'http://127.0.0.1/',
      'http://[::1]:80/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/',
      'http://100.100.100.200/',
      'http://localhost/',
      'http://internal.example/',
      'http://0x7f.1/',
      'https://user:pw@hooks.example/',
      'ftp://hooks.example/',
      'javascript:alert(1)',
      'http://',
      '//hooks.example/x',
      `https://hooks.example/${'x'.repeat(2_050)}`,
      'https://hooks.example/%zz',
      'https://[::1/',
      'https://hooks.example:99999/',
    ),
    weight: 3,
  },
  { arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }), weight: 2 },
  { arbitrary: fc.string({ maxLength: 40 }), weight: 1 },
);
const eventTypesValue = fc.oneof(
  { arbitrary: fc.subarray([...SUBSCRIBABLE_EVENT_TYPES], { minLength: 1 }), weight: 5 },
  {
    arbitrary: fc.array(
      fc.oneof(fc.constantFrom(...SUBSCRIBABLE_EVENT_TYPES, 'webhook.test', 'pet.sold', ''), fc.string({ maxLength: 12 })),
      {
        maxLength: 9,
      },
    ),
    weight: 3,
  },
);
const overlapValue = fc.oneof(fc.integer({ min: -10, max: 100_000 }), fc.integer(), fc.double(), fc.string({ maxLength: 6 }));
const anything = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 40 }),
);

const BODIES = {
  create: fc.oneof(
    {
      arbitrary: fc
        .record(
          { url: urlValue, eventTypes: eventTypesValue, description: fc.string({ maxLength: 30 }) },
          { requiredKeys: ['url', 'eventTypes'] },
        )
        .map((b) => JSON.stringify(b)),
      weight: 5,
    },
    {
      arbitrary: objectText({ url: anyValue(urlValue), eventTypes: anyValue(eventTypesValue), description: anyValue(anyName) }),
      weight: 8,
    },
    { arbitrary: anything, weight: 1 },
  ),
  change: fc.oneof(
    {
      arbitrary: fc
        .record(
          { url: urlValue, eventTypes: eventTypesValue, description: fc.string({ maxLength: 30 }), enabled: fc.boolean() },
          { requiredKeys: [] },
        )
        .map((b) => JSON.stringify(b)),
      weight: 5,
    },
    {
      arbitrary: objectText({
        url: anyValue(urlValue),
        eventTypes: anyValue(eventTypesValue),
        description: anyValue(anyName),
        enabled: anyValue(fc.oneof(fc.boolean(), fc.constantFrom('true', 0, 1, null))),
      }),
      weight: 8,
    },
    { arbitrary: anything, weight: 1 },
  ),
  rotate: fc.oneof(
    { arbitrary: fc.integer({ min: 0, max: 86_400 }).map((overlapSeconds) => JSON.stringify({ overlapSeconds })), weight: 4 },
    { arbitrary: objectText({ overlapSeconds: anyValue(overlapValue) }), weight: 8 },
    { arbitrary: fc.constantFrom('', '{}', '[]', 'null'), weight: 2 },
    { arbitrary: anything, weight: 1 },
  ),
};

interface Operation {
  method: string;
  path: string;
  body?: string;
  /** What it answers when all is well. */
  success: string;
}

const idempotencyKey = fc.option(fc.oneof(fc.uuid(), fc.constantFrom('same-key', 'other-key'), headerValueText(300)), {
  freq: 2,
  nil: undefined,
});

/** Every operation of /v1/webhook-endpoints, with fuzzed ids, event ids, queries and bodies. */
function operation(eventIds: string[], cursors: string[]): fc.Arbitrary<Operation> {
  const endpoint = petIdSegment([OWN, STRANGERS]);
  const eventId = fc.oneof(
    { arbitrary: fc.constantFrom(...eventIds), weight: 4 },
    { arbitrary: fc.stringMatching(/^evt_[0-9a-f]{32}$/), weight: 2 },
    { arbitrary: fc.string({ maxLength: 40 }).chain((s) => wireForm(s)), weight: 2 },
    {
      arbitrary: fc.constantFrom('evt_', 'evt_00000000000000000000000000000000%00', 'evt_' + '0'.repeat(33), '..', '%2e%2e', '__proto__'),
      weight: 1,
    },
  );
  const query = queryPairs(cursors).chain((pairs) =>
    fc.tuple(...pairs.map(({ key, value }) => fc.tuple(wireForm(key), value === undefined ? fc.constant(undefined) : wireForm(value)))),
  );
  const withQuery = (path: string) =>
    fc.oneof(
      fc.constantFrom(path, `${path}?limit=1`, `${path}?limit=100`, `${path}?cursor=${cursors[0]}&limit=2`),
      query.map((pairs) => (pairs.length ? `${path}?${pairs.map(([k, v]) => (v === undefined ? k : `${k}=${v}`)).join('&')}` : path)),
    );
  const base = '/v1/webhook-endpoints';
  return fc.oneof<Array<fc.Arbitrary<Operation>>>(
    withQuery(base).map((path) => ({ method: 'GET', path, success: '200' })),
    BODIES.create.map((body) => ({ method: 'POST', path: base, body, success: '201' })),
    endpoint.map((id) => ({ method: 'GET', path: `${base}/${id}`, success: '200' })),
    fc.tuple(endpoint, BODIES.change).map(([id, body]) => ({ method: 'PATCH', path: `${base}/${id}`, body, success: '200' })),
    endpoint.map((id) => ({ method: 'DELETE', path: `${base}/${id}`, success: '204' })),
    fc
      .tuple(endpoint, fc.option(BODIES.rotate, { nil: undefined }))
      .map(([id, body]) => ({ method: 'POST', path: `${base}/${id}/rotate-secret`, body, success: '201' })),
    endpoint.map((id) => ({ method: 'POST', path: `${base}/${id}/test`, success: '202' })),
    endpoint.chain((id) => withQuery(`${base}/${id}/deliveries`)).map((path) => ({ method: 'GET', path, success: '200' })),
    fc
      .tuple(endpoint, eventId)
      .map(([id, event]) => ({ method: 'POST', path: `${base}/${id}/deliveries/${event}/redeliver`, success: '202' })),
  );
}

describe('Webhook endpoints under fuzzing (every /v1/webhook-endpoints operation over HTTP)', () => {
  let target: FuzzTarget;
  let endpoints: WebhookEndpointsService;
  let manager: string;
  let reader: string;
  let revoked: string;
  let clientId: number;
  let ownId: number;
  let strangersId: number;
  let eventIds: string[];
  let cursors: string[];
  /** Every webhook secret the run has seen: none may show but in the 201 that made it. */
  const secrets = new Set<string>();
  const histogram = new OutcomeHistogram();
  const fields = { url: 'https://hooks.example/in', eventTypes: ['pet.created'] };

  beforeAll(async () => {
    target = await startFuzzTarget({
      // Deliveries are not attempted (the fuzzed hosts do not exist); events and deliveries are still written.
      env: { WEBHOOK_DELIVERY: 'false' },
      overrides: [{ provide: HostResolver, useValue: new FuzzResolver() }],
    });
    const app = target.t.app;
    endpoints = app.get(WebhookEndpointsService);
    const clients = app.get(ClientsService);
    const keys = app.get(ApiKeysService);
    const limits = { perMinute: 1_000_000, perDay: 100_000_000 };
    clientId = (await clients.create('Fuzzed hooks', 'enterprise', limits, OPERATOR)).id;
    manager = (await keys.issue(clientId, { scopes: ['pets:read', 'webhooks:manage'] }, OPERATOR)).key;
    reader = (await keys.issue(clientId, { scopes: ['pets:read', 'keys:manage'] }, OPERATOR)).key;
    const gone = await keys.issue(clientId, { scopes: ['webhooks:manage'] }, OPERATOR);
    await keys.revoke(gone.apiKey.id, OPERATOR);
    revoked = gone.key;
    const stranger = (await clients.create('Stranger', 'enterprise', limits, OPERATOR)).id;
    strangersId = (await endpoints.create(stranger, fields, OPERATOR)).id;
    const own = await endpoints.create(clientId, fields, OPERATOR);
    secrets.add(own.secret);
    ownId = own.id;
    // Events delivered to the caller's endpoint (so redelivery has something to redo) and attempts to page through.
    eventIds = [];
    for (let i = 0; i < 3; i++) eventIds.push((await endpoints.sendTest(clientId, ownId)).eventId);
    await app.get(OutboxRepository).dispatch(500, 7);
    for (const [i, eventId] of eventIds.entries()) {
      await target.t.dataSource.query(
        `INSERT INTO webhook_attempts (endpoint_id, event_id, event_type, attempt, attempted_at, status_code, error, duration_ms)
         VALUES ($1, $2, 'webhook.test', 1, now(), $3, $4, 12)`,
        [ownId, eventId, i === 0 ? null : 500, i === 0 ? 'timeout' : null],
      );
    }
    cursors = [(await endpoints.attempts(clientId, ownId, { limit: 1 })).nextCursor!];
  });
  afterAll(async () => {
    console.log(`[fuzz] outcomes\n${histogram.report()}`);
    await target.close();
  });

  const withIds = (path: string) => path.replaceAll(String(OWN), String(ownId)).replaceAll(String(STRANGERS), String(strangersId));

  /** Sends, checks what holds for every answer, and keeps the caller's endpoints at one live one plus what the run made. */
  const exchange = async (property: string, request: RawRequest) => {
    const response = await target.send(request);
    checkResponse(request, response);
    const outcome = outcomeOf(response);
    histogram.record(property, outcome);
    const own = response.status === 201 ? (JSON.parse(response.text) as { id: number; secret?: string }) : undefined;
    const shown = [...secrets].filter(
      (secret) => secret !== own?.secret && `${JSON.stringify(response.headers)}${response.text}`.includes(secret),
    );
    expect(shown).toEqual([]);
    if (own?.secret) {
      expect(own.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      secrets.add(own.secret);
    }
    if (request.method === 'POST' && response.status === 201 && own && own.id !== ownId) {
      // A creation: removed again, so the ten-endpoint limit stays far (unless it was a replay of one already removed).
      await endpoints.remove(clientId, own.id, OPERATOR).catch(() => undefined);
    }
    if (request.method === 'DELETE' && response.status === 204) {
      const replacement = await endpoints.create(clientId, fields, OPERATOR);
      secrets.add(replacement.secret);
      ownId = replacement.id;
    }
    return { response, outcome };
  };

  const operationRuns = runsFor(0.5);
  it(
    'answers every operation, path, query, header and body with a catalogued outcome, never a 5xx; no secret but in the 201 that made it',
    async () => {
      const prototypesBefore = snapshotPrototypes();
      await fc.assert(
        fc.asyncProperty(
          operation(eventIds, cursors),
          contentType,
          idempotencyKey,
          requestIdHeader,
          async ({ method, path, body, success }, type, idempotency, requestId) => {
            histogram.run(OPERATIONS);
            const request: RawRequest = {
              method,
              path: withIds(path),
              headers: {
                Authorization: `Bearer ${manager}`,
                ...(body !== undefined && type.value !== undefined && { 'Content-Type': type.value }),
                ...(idempotency !== undefined && { 'Idempotency-Key': idempotency }),
                ...(requestId !== undefined && { 'X-Request-Id': requestId }),
              },
              ...(body !== undefined && { body: Buffer.from(body) }),
            };
            const { response, outcome } = await exchange(OPERATIONS, request);
            const bodyErrors = ['400 validation_failed', '400 malformed_json', '413 payload_too_large', '415 unsupported_media_type'];
            const idempotent = method === 'POST' && success === '201' ? ['409 idempotency_conflict', '422 idempotency_key_reused'] : [];
            const limit = path === '/v1/webhook-endpoints' && method === 'POST' ? ['409 endpoint_limit_reached'] : [];
            checkOutcome(outcome, [success, ...bodyErrors, ...idempotent, ...limit, '404 not_found'], request, response);
            checkNoPollution(prototypesBefore, `${method} ${path}`);
          },
        ),
        fuzzParameters(OPERATIONS, operationRuns),
      );
      for (const outcome of ['200', '201', '202', '204', '400 validation_failed', '404 not_found']) {
        expect({ outcome, seen: histogram.countOf(OPERATIONS, outcome) > 0 }).toEqual({ outcome, seen: true });
      }
      // The refusals at save: a private or unresolvable host is a 400 on url, never saved.
      const saved = await target.t.dataSource.query<Array<{ url: string }>>('SELECT url FROM webhook_endpoints');
      expect(saved.filter(({ url }) => !/^https?:\/\/(hooks\.example(\.com)?|93\.184\.216\.34)[:/]/.test(url))).toEqual([]);
    },
    fuzzTimeout(operationRuns),
  );

  const authorizationRuns = runsFor(0.25);
  it(
    'refuses every Authorization header but "Bearer <live key with webhooks:manage>" with the right 401 or 403, and serves the ones that are',
    async () => {
      const operations = [
        { method: 'GET', path: '/v1/webhook-endpoints', success: '200' },
        { method: 'GET', path: `/v1/webhook-endpoints/${OWN}`, success: '200' },
        { method: 'POST', path: `/v1/webhook-endpoints/${OWN}/test`, success: '202' },
        { method: 'GET', path: `/v1/webhook-endpoints/${OWN}/deliveries?limit=2`, success: '200' },
      ];
      await fc.assert(
        fc.asyncProperty(authorizationHeader([manager, reader], [revoked]), fc.constantFrom(...operations), async (authorization, op) => {
          histogram.run(AUTHORIZATION);
          const request: RawRequest = {
            method: op.method,
            path: withIds(op.path),
            headers: { ...(authorization !== undefined && { Authorization: authorization }) },
          };
          const kind = authKindOf(authorization, [manager, reader]);
          const holdsScope = kind === 'valid' && authKindOf(authorization, [manager]) === 'valid';
          const expected = {
            missing: '401 missing_api_key',
            invalid: '401 invalid_api_key',
            valid: holdsScope ? op.success : '403 insufficient_scope',
          }[kind];
          const { response, outcome } = await exchange(AUTHORIZATION, request);
          checkOutcome(outcome, [expected], request, response);
        }),
        fuzzParameters(AUTHORIZATION, authorizationRuns),
      );
      for (const outcome of ['200', '202', '401 missing_api_key', '401 invalid_api_key', '403 insufficient_scope']) {
        expect({ outcome, seen: histogram.countOf(AUTHORIZATION, outcome) > 0 }).toEqual({ outcome, seen: true });
      }
    },
    fuzzTimeout(authorizationRuns),
  );
});
