import { OPERATOR } from '../support/test-app.js';
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { AdminTokensService, createAdminApp } from '../../src/modules/admin/index.js';
import { serverParts } from '../../src/app.module.js';
import { ApiKeysService } from '../../src/modules/auth/index.js';
import { ClientsService } from '../../src/modules/plans/index.js';
import { createLogger, PINO_LOGGER } from '../../src/platform/logging/index.js';
import {
  anyName,
  anyValue,
  authorizationHeader,
  objectText,
  petIdSegment,
  queryPairs,
  validName,
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
import { RawHttpClient, type RawRequest } from './support/raw-http.js';

const SCOPES = serverParts().scopes.map(({ name }) => name);

const OPERATIONS = 'admin operations';
const AUTHORIZATION = 'admin authorization';

const plan = fc.oneof(fc.constantFrom('free', 'pro', 'business', 'enterprise'), fc.string({ maxLength: 12 }));
const limit = fc.oneof(fc.integer({ min: -2, max: 10_000 }), fc.constant(2 ** 60), fc.double(), fc.string({ maxLength: 6 }));
const planMembers = { plan: anyValue(plan), perMinute: anyValue(limit), perDay: anyValue(limit) };

/** Bodies of each operation that takes one: valid ones (the happy path), fuzzed members, anything at all. */
const BODIES = {
  createClient: fc.oneof(
    { arbitrary: fc.record({ name: validName, plan: fc.constantFrom('free', 'pro') }).map((b) => JSON.stringify(b)), weight: 3 },
    { arbitrary: objectText({ name: anyValue(anyName), ...planMembers }), weight: 10 },
    { arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)), weight: 1 },
  ),
  setClientPlan: fc.oneof(
    { arbitrary: fc.constantFrom('{"plan":"pro"}', '{"plan":"enterprise","perMinute":10,"perDay":100}'), weight: 3 },
    { arbitrary: objectText(planMembers), weight: 10 },
    { arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)), weight: 1 },
  ),
  createClientKey: fc.oneof(
    {
      arbitrary: fc
        .record({ name: validName, scopes: fc.subarray([...SCOPES], { minLength: 1 }) }, { requiredKeys: [] })
        .map((b) => JSON.stringify(b)),
      weight: 3,
    },
    {
      arbitrary: objectText({
        name: anyValue(anyName),
        scopes: anyValue(fc.array(fc.oneof(fc.constantFrom(...SCOPES), fc.string({ maxLength: 12 })), { maxLength: 5 })),
        expiresInSeconds: anyValue(fc.oneof(fc.integer({ min: -10, max: 40_000_000 }), fc.double())),
      }),
      weight: 10,
    },
    { arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)), weight: 1 },
  ),
  rollClientKey: fc.oneof(
    { arbitrary: fc.integer({ min: 0, max: 86_400 }).map((overlapSeconds) => JSON.stringify({ overlapSeconds })), weight: 3 },
    { arbitrary: objectText({ overlapSeconds: anyValue(fc.oneof(fc.integer(), fc.double(), fc.string({ maxLength: 6 }))) }), weight: 10 },
    { arbitrary: fc.constantFrom('', '[]', 'null'), weight: 1 },
  ),
};

interface Operation {
  method: string;
  path: string;
  body?: string;
  /** What it answers when all is well. */
  success: string;
}

/** Every admin operation, with fuzzed ids, queries and bodies. */
function operation(clientIds: number[], keyIds: number[], cursors: string[]): fc.Arbitrary<Operation> {
  const client = petIdSegment(clientIds);
  const key = petIdSegment(keyIds);
  const query = queryPairs(cursors).chain((pairs) =>
    fc.tuple(...pairs.map(({ key: k, value }) => fc.tuple(wireForm(k), value === undefined ? fc.constant(undefined) : wireForm(value)))),
  );
  const withQuery = (path: string) =>
    fc.oneof(
      fc.constantFrom(path, `${path}?limit=1`, `${path}?limit=100`),
      query.map((pairs) => (pairs.length ? `${path}?${pairs.map(([k, v]) => (v === undefined ? k : `${k}=${v}`)).join('&')}` : path)),
    );
  return fc.oneof<Array<fc.Arbitrary<Operation>>>(
    BODIES.createClient.map((body) => ({ method: 'POST', path: '/admin/v1/clients', body, success: '201' })),
    withQuery('/admin/v1/clients').map((path) => ({ method: 'GET', path, success: '200' })),
    client.map((id) => ({ method: 'GET', path: `/admin/v1/clients/${id}`, success: '200' })),
    fc
      .tuple(client, BODIES.setClientPlan)
      .map(([id, body]) => ({ method: 'PUT', path: `/admin/v1/clients/${id}/plan`, body, success: '200' })),
    fc
      .tuple(client, BODIES.createClientKey)
      .map(([id, body]) => ({ method: 'POST', path: `/admin/v1/clients/${id}/keys`, body, success: '201' })),
    client.chain((id) => withQuery(`/admin/v1/clients/${id}/keys`)).map((path) => ({ method: 'GET', path, success: '200' })),
    fc
      .tuple(client, key, BODIES.rollClientKey)
      .map(([id, keyId, body]) => ({ method: 'POST', path: `/admin/v1/clients/${id}/keys/${keyId}/roll`, body, success: '201' })),
    fc.tuple(client, key).map(([id, keyId]) => ({ method: 'DELETE', path: `/admin/v1/clients/${id}/keys/${keyId}`, success: '204' })),
  );
}

describe('The admin API under fuzzing (every admin operation over HTTP, on its own application)', () => {
  let target: FuzzTarget;
  let admin: RawHttpClient;
  let tokens: string[];
  let refusedTokens: string[];
  let clientIds: number[];
  let keyIds: number[];
  const secrets = new Set<string>();
  let logged = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged += chunk.toString();
      done();
    },
  });
  const histogram = new OutcomeHistogram();
  const remember = (secret: string) => {
    secrets.add(secret);
    secrets.add(createHash('sha256').update(secret).digest('hex'));
    return secret;
  };

  beforeAll(async () => {
    target = await startFuzzTarget({
      overrides: [{ provide: PINO_LOGGER, useValue: createLogger({ logLevel: 'debug', production: true }, sink) }],
    });
    const adminApp = await createAdminApp(target.t.app);
    await adminApp.listen(0, '127.0.0.1');
    admin = new RawHttpClient(new URL(await adminApp.getUrl()));
    const adminTokens = target.t.app.get(AdminTokensService);
    tokens = [remember((await adminTokens.create('fuzz', OPERATOR)).token), remember((await adminTokens.create('fuzz 2', OPERATOR)).token)];
    const revoked = await adminTokens.create('revoked', OPERATOR);
    await adminTokens.revoke(revoked.adminToken.id, OPERATOR);
    const clients = target.t.app.get(ClientsService);
    const keys = target.t.app.get(ApiKeysService);
    const client = await clients.create('Fuzzed', 'pro', {}, OPERATOR);
    const apiKey = await keys.issue(client.id, { scopes: ['pets:read', 'pets:write', 'keys:manage'] }, OPERATOR);
    refusedTokens = [remember(revoked.token), remember(apiKey.key)];
    clientIds = [client.id, (await clients.create('Other', 'free', {}, OPERATOR)).id];
    keyIds = [apiKey.apiKey.id, (await keys.issue(clientIds[1], {}, OPERATOR)).apiKey.id];
  });
  afterAll(async () => {
    console.log(`[fuzz] outcomes\n${histogram.report()}`);
    admin.close();
    // Closes the admin application too.
    await target.close();
  });

  const exchange = async (property: string, request: RawRequest) => {
    target.clock.advance(100);
    const response = await admin.send(request);
    checkResponse(request, response);
    const outcome = outcomeOf(response);
    histogram.record(property, outcome);
    const created = response.status === 201 ? (JSON.parse(response.text) as { key?: string }).key : undefined;
    if (created) remember(created);
    expect(
      [...secrets].filter((secret) => secret !== created && `${JSON.stringify(response.headers)}${response.text}`.includes(secret)),
    ).toEqual([]);
    return { response, outcome };
  };

  const operationRuns = runsFor(0.5);
  it(
    'answers every operation, path, query and body with a catalogued outcome, never a 5xx; no secret in a response or the log',
    async () => {
      const prototypesBefore = snapshotPrototypes();
      const { nextCursor } = await target.t.app.get(ClientsService).listPage({ limit: 1 });
      await fc.assert(
        fc.asyncProperty(operation(clientIds, keyIds, [nextCursor!]), async ({ method, path, body, success }) => {
          histogram.run(OPERATIONS);
          const request: RawRequest = {
            method,
            path,
            headers: { Authorization: `Bearer ${tokens[0]}`, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
            ...(body !== undefined && { body: Buffer.from(body) }),
          };
          const { response, outcome } = await exchange(OPERATIONS, request);
          checkOutcome(
            outcome,
            [success, '400 validation_failed', '400 malformed_json', '404 not_found', '413 payload_too_large'],
            request,
            response,
          );
          checkNoPollution(prototypesBefore, `${method} ${path}`);
        }),
        fuzzParameters(OPERATIONS, operationRuns),
      );
      for (const outcome of ['200', '201', '204', '400 validation_failed', '404 not_found']) {
        expect({ outcome, seen: histogram.countOf(OPERATIONS, outcome) > 0 }).toEqual({ outcome, seen: true });
      }
      expect(logged).toContain('"url":"/admin/v1/clients');
      expect([...secrets].filter((secret) => logged.includes(secret))).toEqual([]);
    },
    fuzzTimeout(operationRuns),
  );

  const authorizationRuns = runsFor(0.25);
  it(
    'refuses every Authorization header but "Bearer <live admin token>" with the right 401 before reading the body, and serves the ones that are',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          authorizationHeader(tokens, refusedTokens),
          fc.constantFrom('{"name":"Auth","plan":"free"}', '{"name":', '[]'),
          async (authorization, body) => {
            histogram.run(AUTHORIZATION);
            const request: RawRequest = {
              method: 'POST',
              path: '/admin/v1/clients',
              headers: { 'Content-Type': 'application/json', ...(authorization !== undefined && { Authorization: authorization }) },
              body: Buffer.from(body),
            };
            const kind = authKindOf(authorization, tokens);
            const served = body.startsWith('{"name":"') ? '201' : body === '[]' ? '400 validation_failed' : '400 malformed_json';
            const expected = { valid: served, missing: '401 missing_admin_token', invalid: '401 invalid_admin_token' }[kind];
            const { response, outcome } = await exchange(AUTHORIZATION, request);
            checkOutcome(outcome, [expected], request, response);
          },
        ),
        fuzzParameters(AUTHORIZATION, authorizationRuns),
      );
    },
    fuzzTimeout(authorizationRuns),
  );
});
