import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { serverParts } from '../../src/app.module.js';
import { ApiKeysService } from '../../src/modules/auth/index.js';
import { ClientsService } from '../../src/modules/plans/clients.service.js';
import { OPERATOR } from '../support/test-app.js';
import { createLogger, PINO_LOGGER } from '../../src/platform/logging/index.js';
import { anyName, anyValue, objectText, petIdSegment, validName } from './support/arbitraries.js';
import {
  fuzzParameters,
  fuzzTimeout,
  outcomeOf,
  OutcomeHistogram,
  runsFor,
  startFuzzTarget,
  type FuzzTarget,
} from './support/fuzz-harness.js';
import { checkNoPollution, checkOutcome, checkResponse, snapshotPrototypes } from './support/properties.js';
import type { RawRequest } from './support/raw-http.js';

const SCOPES = serverParts().scopes.map(({ name }) => name);

const PROPERTY = 'keys';

const scopesValue = fc.array(fc.oneof(fc.constantFrom(...SCOPES), fc.string({ maxLength: 12 })), { maxLength: 5 });
const secondsValue = fc.oneof(fc.integer({ min: -10, max: 100_000 }), fc.integer(), fc.double(), fc.string({ maxLength: 6 }));

/** Valid bodies, so the happy path is in the mix: scopes the fuzzing key holds, or none (refused: the default includes pets:write). */
const validCreateText = fc
  .record(
    {
      name: validName,
      scopes: fc.subarray(['pets:read', 'keys:manage'], { minLength: 1 }),
      expiresInSeconds: fc.integer({ min: 1, max: 31_622_400 }),
    },
    { requiredKeys: ['name'] },
  )
  .map((body) => JSON.stringify(body));

const createBody = fc.oneof(
  { arbitrary: validCreateText, weight: 4 },
  {
    arbitrary: objectText({ name: anyValue(anyName), scopes: anyValue(scopesValue), expiresInSeconds: anyValue(secondsValue) }),
    weight: 10,
  },
  {
    arbitrary: fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 40 }),
    ),
    weight: 1,
  },
);
const rollBody = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 86_400 }).map((overlapSeconds) => JSON.stringify({ overlapSeconds })), weight: 4 },
  { arbitrary: objectText({ overlapSeconds: anyValue(secondsValue) }), weight: 10 },
  {
    arbitrary: fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.constant(''),
    ),
    weight: 1,
  },
);

/** Every key the run knows, and the SHA-256 hashes the database keeps of them. */
class Secrets {
  private readonly all = new Set<string>();

  add(key: string): string {
    this.all.add(key);
    this.all.add(createHash('sha256').update(key).digest('hex'));
    return key;
  }

  /** The secrets in `text`, but for `allowed` (a creation's own new key). */
  foundIn(text: string, allowed?: string): string[] {
    return [...this.all].filter((secret) => secret !== allowed && text.includes(secret));
  }
}

describe('Self-service keys under fuzzing (POST /v1/keys and its roll over HTTP)', () => {
  let target: FuzzTarget;
  const secrets = new Secrets();
  // Every log line of the run at debug level, through the service's own logger and its redaction.
  let logged = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged += chunk.toString();
      done();
    },
  });
  let manager: string;
  let ownKeyId: number;
  let strangersKeyId: number;
  const histogram = new OutcomeHistogram();
  const json = { 'Content-Type': 'application/json' };

  beforeAll(async () => {
    target = await startFuzzTarget({
      overrides: [{ provide: PINO_LOGGER, useValue: createLogger({ logLevel: 'debug', production: true }, sink) }],
    });
    const keys = target.t.app.get(ApiKeysService);
    const clients = target.t.app.get(ClientsService);
    const limits = { perMinute: 1_000_000, perDay: 100_000_000 };
    // Without pets:write: the default scopes are refused, some explicit ones are not.
    const client = await clients.create('Fuzzed', 'enterprise', limits, OPERATOR);
    manager = secrets.add((await keys.issue(client.id, { scopes: ['pets:read', 'keys:manage'] }, OPERATOR)).key);
    const own = await keys.issue(client.id, { name: 'rolled' }, OPERATOR);
    secrets.add(own.key);
    ownKeyId = own.apiKey.id;
    const strangers = await keys.issue((await clients.create('Stranger', 'enterprise', limits, OPERATOR)).id, {}, OPERATOR);
    secrets.add(strangers.key);
    strangersKeyId = strangers.apiKey.id;
  });
  afterAll(async () => {
    console.log(`[fuzz] outcomes\n${histogram.report()}`);
    await target.close();
  });

  /** Sends, checks what holds for every answer (no 5xx among them), and revokes what a 201 made so the limit stays far. */
  const exchange = async (request: RawRequest, allowed: string[]) => {
    const response = await target.send(request);
    checkResponse(request, response);
    const outcome = outcomeOf(response);
    histogram.record(PROPERTY, outcome);
    checkOutcome(outcome, allowed, request, response);
    const created = response.status === 201 ? (JSON.parse(response.text) as { id: number; key: string }) : undefined;
    expect(secrets.foundIn(`${JSON.stringify(response.headers)}${response.text}`, created?.key)).toEqual([]);
    if (created) {
      expect(created.key).toMatch(/^pets_[0-9A-Za-z]{38}$/);
      secrets.add(created.key);
      const revoked = await target.send({
        method: 'DELETE',
        path: `/v1/keys/${created.id}`,
        headers: { Authorization: `Bearer ${manager}` },
      });
      expect(revoked.status).toBe(204);
    }
  };

  const numRuns = runsFor(0.5);
  it(
    'answers every creation and roll body with a catalogued outcome, never a 5xx; no key or hash in a response but its own 201, in the log or in the OpenAPI document',
    async () => {
      const prototypesBefore = snapshotPrototypes();
      const roll = fc.tuple(petIdSegment([ownKeyId, strangersKeyId]), rollBody);
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            createBody.map((body) => ({ body })),
            roll.map(([id, body]) => ({ id, body })),
          ),
          async (input) => {
            histogram.run(PROPERTY);
            const headers = { Authorization: `Bearer ${manager}`, ...json };
            if ('id' in input) {
              const request = { method: 'POST', path: `/v1/keys/${input.id}/roll`, headers, body: Buffer.from(input.body) };
              await exchange(request, ['201', '400 validation_failed', '400 malformed_json', '413 payload_too_large', '404 not_found']);
            } else {
              const request = { method: 'POST', path: '/v1/keys', headers, body: Buffer.from(input.body) };
              await exchange(request, [
                '201',
                '400 validation_failed',
                '400 malformed_json',
                '413 payload_too_large',
                '403 insufficient_scope',
              ]);
            }
            checkNoPollution(prototypesBefore, PROPERTY);
          },
        ),
        fuzzParameters(PROPERTY, numRuns),
      );
      for (const outcome of ['201', '400 validation_failed', '403 insufficient_scope', '404 not_found']) {
        expect({ outcome, seen: histogram.countOf(PROPERTY, outcome) > 0 }).toEqual({ outcome, seen: true });
      }
      expect(logged).toContain('"url":"/v1/keys');
      expect(secrets.foundIn(logged)).toEqual([]);
      const document = await target.send({ method: 'GET', path: '/docs-json', headers: {} });
      expect(document.status).toBe(200);
      expect(document.text).not.toMatch(/pets_[0-9A-Za-z]{38}|[0-9a-f]{64}/);
    },
    fuzzTimeout(numRuns),
  );
});
