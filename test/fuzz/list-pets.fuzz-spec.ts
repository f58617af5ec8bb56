import fc from 'fast-check';
import { PET_STATUSES, queryString } from './support/arbitraries.js';
import { fuzzParameters, fuzzTimeout, OutcomeHistogram, runsFor, startFuzzTarget, type FuzzTarget } from './support/fuzz-harness.js';
import { checkNoPollution, checkOutcome, checkPet, listPetsOracle, snapshotPrototypes, type PetBody } from './support/properties.js';
import { header, type RawRequest } from './support/raw-http.js';

const PROPERTY = 'listPets';
const SEEDED = 45;

/** The URL of a `Link: <url>; rel="next"` header, if any. */
const nextLink = (value: string | undefined) => (value ? /^<([^>]+)>; rel="next"$/.exec(value)?.[1] : undefined);

describe('listPets under fuzzing (GET /v1/pets over HTTP)', () => {
  let target: FuzzTarget;
  let auth: Record<string, string>;
  /** The table, in id order: the oracle of every page. */
  const pets: PetBody[] = [];
  /** Real cursors met while paging, with where they continue and the filter they belong to. */
  const cursors = new Map<string, { after: number; status: string | null }>();
  const histogram = new OutcomeHistogram();

  beforeAll(async () => {
    target = await startFuzzTarget();
    auth = { Authorization: `Bearer ${await target.t.newKey()}` };
    for (let i = 0; i < SEEDED; i++) {
      const body = { name: `pet ${i}`, categoryId: 1 + (i % 4), ...(i % 5 > 0 && { status: PET_STATUSES[i % 3] }) };
      const res = await target.send({
        method: 'POST',
        path: '/v1/pets',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: Buffer.from(JSON.stringify(body)),
      });
      expect(res.status).toBe(201);
      pets.push(JSON.parse(res.text) as PetBody);
    }
    for (const status of [undefined, ...PET_STATUSES]) {
      for (const limit of [1, 2, 7, 20]) {
        let path: string | undefined = `/v1/pets?limit=${limit}${status ? `&status=${status}` : ''}`;
        for (let page = 0; path && page < 8; page++) {
          const res = await target.send({ method: 'GET', path, headers: auth });
          const body = JSON.parse(res.text) as PetBody[];
          const next = nextLink(header(res, 'link'));
          if (next) {
            const url = new URL(next);
            cursors.set(url.searchParams.get('cursor')!, { after: body.at(-1)!.id, status: status ?? null });
            path = `${url.pathname}${url.search}`;
          } else path = undefined;
        }
      }
    }
  });
  afterAll(async () => {
    console.log(`[fuzz] outcomes\n${histogram.report()}`);
    await target.close();
  });

  const numRuns = runsFor(1);
  it(
    'answers every query string with the right page or 400 validation_failed',
    async () => {
      const prototypesBefore = snapshotPrototypes();
      const base = await target.t.app.getUrl();
      await fc.assert(
        fc.asyncProperty(
          queryString([...cursors].map(([cursor, { status }]) => [cursor, status] as const)),
          fc.constantFrom('/v1/pets', '/v1/pets/'),
          fc.boolean(),
          async (query, path, bareMark) => {
            histogram.run(PROPERTY);
            const request: RawRequest = { method: 'GET', path: query === '' && !bareMark ? path : `${path}?${query}`, headers: auth };
            const expected = listPetsOracle(query, cursors);
            const { response, outcome } = await target.exchange(request);
            histogram.record(PROPERTY, outcome);

            checkOutcome(
              outcome,
              expected.valid === true ? ['200'] : expected.valid ? ['200', '400 validation_failed'] : ['400 validation_failed'],
              request,
              response,
            );
            if (response.status === 200) {
              const rows = pets.filter((pet) => pet.id > expected.after && (!expected.status || pet.status === expected.status));
              const page = (JSON.parse(response.text) as unknown[]).map((pet) => checkPet(pet, request, response));
              expect(page).toEqual(rows.slice(0, expected.limit));
              const next = nextLink(header(response, 'link'));
              if (rows.length > expected.limit) {
                expect(next).toBeDefined();
                const url = new URL(next!);
                expect(`${url.origin}${url.pathname}`).toBe(`${base}/v1/pets`);
                expect(url.searchParams.get('limit')).toBe(String(expected.limit));
                expect(url.searchParams.get('status')).toBe(expected.status ?? null);
                expect(url.searchParams.get('cursor')).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
              } else {
                expect(next).toBeUndefined();
              }
            }
            checkNoPollution(prototypesBefore, `GET ${request.path}`);
          },
        ),
        fuzzParameters(PROPERTY, numRuns),
      );
      for (const outcome of ['200', '400 validation_failed']) {
        expect({ outcome, seen: histogram.countOf(PROPERTY, outcome) > 0 }).toEqual({ outcome, seen: true });
      }
    },
    fuzzTimeout(numRuns),
  );
});
