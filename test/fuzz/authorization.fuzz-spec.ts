import fc from 'fast-check';
import { ApiKeysService } from '../../src/modules/auth/api-keys.service.js';
import { ClientsService } from '../../src/modules/plans/clients.service.js';
import { OPERATOR } from '../support/test-app.js';
import { authorizationHeader, requestIdHeader } from './support/arbitraries.js';
import { fuzzParameters, fuzzTimeout, OutcomeHistogram, runsFor, startFuzzTarget, type FuzzTarget } from './support/fuzz-harness.js';
import { authKindOf, checkNoPollution, checkOutcome, snapshotPrototypes } from './support/properties.js';
import type { RawRequest } from './support/raw-http.js';

const PROPERTY = 'authorization';

describe('Authorization under fuzzing (every /v1/pets operation over HTTP)', () => {
  let target: FuzzTarget;
  let goodKeys: string[];
  let badKeys: string[];
  const histogram = new OutcomeHistogram();

  beforeAll(async () => {
    target = await startFuzzTarget();
    goodKeys = [await target.t.newKey(), await target.t.newKey()];
    // Keys that were real: one revoked, one expired. Both must be refused as invalid.
    const clients = target.t.app.get(ClientsService);
    const keys = target.t.app.get(ApiKeysService);
    const client = await clients.create('fuzz: bad keys', 'enterprise', { perMinute: 1_000_000, perDay: 100_000_000 }, OPERATOR);
    const revoked = await keys.issue(client.id, {}, OPERATOR);
    await keys.revoke(revoked.apiKey.id, OPERATOR);
    const expired = await keys.issue(client.id, { expiresAt: new Date(target.clock.now().getTime() - 60_000) }, OPERATOR);
    badKeys = [revoked.key, expired.key];
  });
  afterAll(async () => {
    console.log(`[fuzz] outcomes\n${histogram.report()}`);
    await target.close();
  });

  const numRuns = runsFor(0.75);
  it(
    'refuses every Authorization header that is not "Bearer <live key>" with the right 401, and serves the ones that are',
    async () => {
      const prototypesBefore = snapshotPrototypes();
      const operations = {
        list: { method: 'GET', path: '/v1/pets?limit=1', success: '200' },
        get: { method: 'GET', path: '/v1/pets/1', success: '200' },
        create: { method: 'POST', path: '/v1/pets', success: '201' },
      } as const;
      // Pet 1 exists, so getPet succeeds with a good key.
      await target.send({
        method: 'POST',
        path: '/v1/pets',
        headers: { Authorization: `Bearer ${goodKeys[0]}`, 'Content-Type': 'application/json' },
        body: Buffer.from('{"name":"Rex","categoryId":1}'),
      });

      await fc.assert(
        fc.asyncProperty(
          authorizationHeader(goodKeys, badKeys),
          requestIdHeader,
          fc.constantFrom<keyof typeof operations>('list', 'get', 'create'),
          async (authorization, requestId, operation) => {
            histogram.run(PROPERTY);
            const { method, path, success } = operations[operation];
            const request: RawRequest = {
              method,
              path,
              headers: {
                ...(authorization !== undefined && { Authorization: authorization }),
                ...(requestId !== undefined && { 'X-Request-Id': requestId }),
                ...(method === 'POST' && { 'Content-Type': 'application/json' }),
              },
              ...(method === 'POST' && { body: Buffer.from('{"name":"Fuzz","categoryId":2}') }),
            };
            const kind = authKindOf(authorization, goodKeys);
            const expected = kind === 'valid' ? success : kind === 'missing' ? '401 missing_api_key' : '401 invalid_api_key';

            const { response, outcome } = await target.exchange(request);
            histogram.record(PROPERTY, outcome);

            checkOutcome(outcome, [expected], request, response);
            checkNoPollution(prototypesBefore, `${method} ${path}`);
          },
        ),
        fuzzParameters(PROPERTY, numRuns),
      );
      for (const outcome of ['200', '201', '401 missing_api_key', '401 invalid_api_key']) {
        expect({ outcome, seen: histogram.countOf(PROPERTY, outcome) > 0 }).toEqual({ outcome, seen: true });
      }
    },
    fuzzTimeout(numRuns),
  );
});
