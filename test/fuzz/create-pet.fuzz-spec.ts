import fc from 'fast-check';
import { BODY_LIMIT_BYTES, contentType, createPetBody, headerValueText, invalidToken } from './support/arbitraries.js';
import { fuzzParameters, fuzzTimeout, OutcomeHistogram, runsFor, startFuzzTarget, type FuzzTarget } from './support/fuzz-harness.js';
import {
  authKindOf,
  checkNoPollution,
  checkOutcome,
  checkPet,
  createPetOracle,
  idempotencyKeyIsValid,
  snapshotPrototypes,
} from './support/properties.js';
import { header, type RawRequest } from './support/raw-http.js';

const PROPERTY = 'createPet';

describe('createPet under fuzzing (POST /v1/pets over HTTP)', () => {
  let target: FuzzTarget;
  let key: string;
  const histogram = new OutcomeHistogram();

  beforeAll(async () => {
    target = await startFuzzTarget();
    key = await target.t.newKey();
  });
  afterAll(async () => {
    console.log(`[fuzz] outcomes\n${histogram.report()}`);
    await target.close();
  });

  const numRuns = runsFor(1);
  it(
    'answers every body, content type, key and Idempotency-Key with a catalogued outcome, and creates a row exactly on 201',
    async () => {
      const prototypesBefore = snapshotPrototypes();
      let fresh = 0;
      const authorization = fc.oneof(
        { arbitrary: fc.constant(`Bearer ${key}`), weight: 16 },
        { arbitrary: fc.constant(undefined), weight: 1 },
        { arbitrary: invalidToken([key]).map((token) => `Bearer ${token}`), weight: 1 },
      );
      const idempotencyKey = fc.oneof(
        { arbitrary: fc.constant(undefined), weight: 12 },
        // Unique per run (a counter), so a replay never hides a creation.
        { arbitrary: fc.stringMatching(/^[!-~]{1,40}$/).map((suffix) => ({ fresh: suffix })), weight: 2 },
        // Invalid ones only: a valid key reused across runs would replay (or 422), which is not this oracle's business.
        {
          arbitrary: fc
            .oneof(fc.constantFrom('', 'x'.repeat(256), 'ünï', 'a\tb'), headerValueText(300))
            .filter((v) => !idempotencyKeyIsValid(v)),
          weight: 1,
        },
      );

      await fc.assert(
        fc.asyncProperty(createPetBody, contentType, authorization, idempotencyKey, async ({ bytes: body }, type, auth, idempotency) => {
          histogram.run(PROPERTY);
          const idempotencyHeader = typeof idempotency === 'object' ? `fuzz-${++fresh}-${idempotency.fresh}`.slice(0, 255) : idempotency;
          const request: RawRequest = {
            method: 'POST',
            path: '/v1/pets',
            headers: {
              ...(auth !== undefined && { Authorization: auth }),
              ...(type.value !== undefined && { 'Content-Type': type.value }),
              ...(idempotencyHeader !== undefined && { 'Idempotency-Key': idempotencyHeader }),
            },
            body,
          };
          const expected = createPetOracle(body, type, authKindOf(auth, [key]), idempotencyHeader, BODY_LIMIT_BYTES);

          const { response, outcome } = await target.exchange(request);
          histogram.record(PROPERTY, outcome);

          checkOutcome(outcome, expected.outcomes, request, response);
          if (response.status === 201) {
            const pet = checkPet(JSON.parse(response.text), request, response);
            expect(pet).toEqual({ id: pet.id, ...expected.pet });
            expect(header(response, 'location')).toBe(`${await target.t.app.getUrl()}/v1/pets/${pet.id}`);
            const rows = await target.t.dataSource.query<Array<Record<string, unknown>>>(
              'SELECT id, name, category_id AS "categoryId", status FROM pets WHERE id = $1',
              [pet.id],
            );
            expect(rows.map((row) => ({ ...row, id: Number(row.id), categoryId: Number(row.categoryId) }))).toEqual([pet]);
          }
          checkNoPollution(prototypesBefore, `${request.method} ${request.path}`);
        }),
        fuzzParameters(PROPERTY, numRuns),
      );
      // The happy path and every layer must be in the mix, or the fuzzer is not testing much.
      for (const outcome of ['201', '400 validation_failed', '400 malformed_json', '413 payload_too_large', '415 unsupported_media_type']) {
        expect({ outcome, seen: histogram.countOf(PROPERTY, outcome) > 0 }).toEqual({ outcome, seen: true });
      }
    },
    fuzzTimeout(numRuns),
  );
});
