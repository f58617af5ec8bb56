import { METHODS } from 'node:http';
import fc from 'fast-check';
import { httpMethod, v1Path } from './support/arbitraries.js';
import { fuzzParameters, fuzzTimeout, OutcomeHistogram, runsFor, startFuzzTarget, type FuzzTarget } from './support/fuzz-harness.js';
import { checkNoPollution, checkOutcome, routeOf, snapshotPrototypes } from './support/properties.js';
import { header, type RawRequest } from './support/raw-http.js';

const PROPERTY = 'routing';

/** A path segment with a percent-encoding that does not decode (`%E0%A4%A`, `%zz`). */
const hasBrokenEscape = (path: string) =>
  path
    .split('?')[0]
    .split('/')
    .some((segment) => {
      try {
        decodeURIComponent(segment);
        return false;
      } catch {
        return true;
      }
    });

describe('Routing under fuzzing (random methods and paths under /v1 over HTTP)', () => {
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

  const numRuns = runsFor(0.75);
  it(
    'answers unknown paths with 404, known paths with another method with 405 and Allow, and never anything else',
    async () => {
      const prototypesBefore = snapshotPrototypes();
      await fc.assert(
        fc.asyncProperty(httpMethod(METHODS), v1Path, fc.boolean(), async (method, path, withKey) => {
          histogram.run(PROPERTY);
          const request: RawRequest = { method, path, headers: withKey ? { Authorization: `Bearer ${key}` } : {} };
          const route = routeOf(path);
          // A path that does not decode may be refused as such before routing.
          const undecodable = hasBrokenEscape(path) ? ['400 validation_failed'] : [];

          const { response, outcome } = await target.exchange(request);
          histogram.record(PROPERTY, method === 'HEAD' ? `HEAD ${response.status}` : outcome);

          if (!route) {
            if (method === 'HEAD') expect([404, ...(undecodable.length ? [400] : [])]).toContain(response.status);
            else checkOutcome(outcome, ['404 not_found', ...undecodable], request, response);
          } else if (!route.allowed.includes(method)) {
            if (method !== 'HEAD') checkOutcome(outcome, ['405 method_not_allowed', ...undecodable], request, response);
            if (response.status === 405) expect(header(response, 'allow')).toBe(route.allowed.join(', '));
          } else {
            // The operation itself answered (a pet, a 400, a 401, or 404 for an animal that does not exist).
            expect(response.status).not.toBe(405);
            if (response.status === 404) expect(route.allowed).not.toContain('POST');
          }
          checkNoPollution(prototypesBefore, `${method} ${path}`);
        }),
        fuzzParameters(PROPERTY, numRuns),
      );
      for (const outcome of ['404 not_found', '405 method_not_allowed']) {
        expect({ outcome, seen: histogram.countOf(PROPERTY, outcome) > 0 }).toEqual({ outcome, seen: true });
      }
    },
    fuzzTimeout(numRuns),
  );
});
