import fc from 'fast-check';
import { petIdSegment } from './support/arbitraries.js';
import { fuzzParameters, fuzzTimeout, OutcomeHistogram, runsFor, startFuzzTarget, type FuzzTarget } from './support/fuzz-harness.js';
import { checkNoPollution, checkOutcome, checkPet, petIdOracle, snapshotPrototypes, type PetBody } from './support/properties.js';
import { header, type RawRequest } from './support/raw-http.js';

const PROPERTY = 'getPet';

const decodes = (segment: string) => {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
};

describe('getPet under fuzzing (GET /v1/pets/{petId} over HTTP)', () => {
  let target: FuzzTarget;
  let auth: Record<string, string>;
  const pets = new Map<number, PetBody>();
  const histogram = new OutcomeHistogram();

  beforeAll(async () => {
    target = await startFuzzTarget();
    auth = { Authorization: `Bearer ${await target.t.newKey()}` };
    for (let i = 0; i < 12; i++) {
      const res = await target.send({
        method: 'POST',
        path: '/v1/pets',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: Buffer.from(JSON.stringify({ name: `pet ${i}`, categoryId: 9007199254740991 - i })),
      });
      const pet = JSON.parse(res.text) as PetBody;
      pets.set(pet.id, pet);
    }
  });
  afterAll(async () => {
    console.log(`[fuzz] outcomes\n${histogram.report()}`);
    await target.close();
  });

  const numRuns = runsFor(1);
  it(
    'answers every path id with the pet, 404 not_found or 400 validation_failed, always with the deprecation headers',
    async () => {
      const prototypesBefore = snapshotPrototypes();
      await fc.assert(
        fc.asyncProperty(
          petIdSegment([...pets.keys()]),
          fc.constantFrom('', '', '', '/'),
          fc.constantFrom('GET', 'GET', 'GET', 'HEAD'),
          async (segment, trailing, method) => {
            histogram.run(PROPERTY);
            const request: RawRequest = { method, path: `/v1/pets/${segment}${trailing}`, headers: auth };
            const id = petIdOracle(segment);
            const found = (n: number) => (pets.has(n) ? '200' : '404 not_found');
            const allowed =
              id === 'invalid'
                ? ['400 validation_failed']
                : id === 'either'
                  ? [found(Number(decodeURIComponent(segment))), '400 validation_failed']
                  : [found(id)];

            const { response, outcome } = await target.exchange(request);
            histogram.record(PROPERTY, method === 'HEAD' ? `HEAD ${response.status}` : outcome);

            if (method === 'GET') checkOutcome(outcome, allowed, request, response);
            else expect(allowed.map((o) => o.slice(0, 3))).toContain(String(response.status));
            // RFC 9745 / RFC 8594: every response of the deprecated operation says so. A path whose
            // id does not percent-decode (`1%E0%A4%A`) is refused by the router before it reaches
            // the operation (400), without them.
            if (decodes(segment)) {
              expect({
                deprecation: header(response, 'deprecation'),
                sunset: header(response, 'sunset'),
                link: header(response, 'link'),
              }).toEqual({
                deprecation: expect.stringMatching(/^@\d+$/),
                sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
                link: '</v1/pets>; rel="successor-version"',
              });
            }
            if (method === 'GET' && response.status === 200) {
              const pet = checkPet(JSON.parse(response.text), request, response);
              expect(pet).toEqual(pets.get(pet.id));
            }
            checkNoPollution(prototypesBefore, `${method} ${request.path}`);
          },
        ),
        fuzzParameters(PROPERTY, numRuns),
      );
      for (const outcome of ['200', '404 not_found', '400 validation_failed']) {
        expect({ outcome, seen: histogram.countOf(PROPERTY, outcome) > 0 }).toEqual({ outcome, seen: true });
      }
    },
    fuzzTimeout(numRuns),
  );
});
