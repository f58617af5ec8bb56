import type fc from 'fast-check';
import { FakeClock } from '../../support/fake-clock.js';
import { createTestApp, type TestApp, type TestAppOptions } from '../../support/test-app.js';
import { checkResponse, checkRowsCreated } from './properties.js';
import { RawHttpClient, type RawRequest, type RawResponse } from './raw-http.js';

function positiveIntegerFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

/**
 * One fixed seed and a bounded number of runs by default, so `npm run test:fuzz` is
 * deterministic; `FUZZ_SEED` and `FUZZ_RUNS` change them (`FUZZ_RUNS=5000 npm run test:fuzz`).
 * Each property takes its share of FUZZ_RUNS through `runsFor(weight)`.
 */
export const FUZZ_SEED = positiveIntegerFromEnv('FUZZ_SEED', 20261121);
export const FUZZ_RUNS = positiveIntegerFromEnv('FUZZ_RUNS', 4000);

export function runsFor(weight = 1): number {
  return Math.max(1, Math.round(FUZZ_RUNS * weight));
}

/** A jest timeout that grows with the runs (each request is bounded by REQUEST_TIMEOUT_MS on its own). */
export function fuzzTimeout(numRuns: number): number {
  return 60_000 + numRuns * 250;
}

/** fast-check parameters of every property: the seed, the runs, and a report that says how to replay. */
export function fuzzParameters(property: string, numRuns: number): fc.Parameters<unknown> {
  console.log(`[fuzz] ${property}: seed=${FUZZ_SEED} runs=${numRuns} (replay: FUZZ_SEED=${FUZZ_SEED} FUZZ_RUNS=${FUZZ_RUNS})`);
  return { seed: FUZZ_SEED, numRuns };
}

/** Counts outcomes per property, printed at the end of the suite. */
export class OutcomeHistogram {
  private readonly counts = new Map<string, Map<string, number>>();
  private readonly runs = new Map<string, number>();

  record(property: string, outcome: string): void {
    const counts = this.counts.get(property) ?? new Map<string, number>();
    counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
    this.counts.set(property, counts);
  }

  /** One run of a property (which may send several requests). */
  run(property: string): void {
    this.runs.set(property, (this.runs.get(property) ?? 0) + 1);
  }

  countOf(property: string, outcome: string): number {
    return this.counts.get(property)?.get(outcome) ?? 0;
  }

  total(property: string): number {
    return [...(this.counts.get(property)?.values() ?? [])].reduce((sum, n) => sum + n, 0);
  }

  report(): string {
    return [...this.counts]
      .map(([property, counts]) => {
        const outcomes = [...counts]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([outcome, n]) => `${outcome}: ${n}`)
          .join(', ');
        return `${property}: ${this.runs.get(property) ?? 0} runs, ${this.total(property)} requests; ${outcomes}`;
      })
      .join('\n');
  }
}

/** The outcome label of a response: the status, plus the error code when there is one. */
export function outcomeOf(response: RawResponse): string {
  try {
    const { code } = JSON.parse(response.text) as { code?: unknown };
    if (typeof code === 'string' && response.status >= 400) return `${response.status} ${code}`;
  } catch {
    // not JSON: the status alone (the properties report the rest)
  }
  return String(response.status);
}

export interface FuzzTarget {
  t: TestApp;
  /** The service's clock: each request moves it on by CLOCK_STEP_MS. */
  clock: FakeClock;
  send: (request: RawRequest) => Promise<RawResponse>;
  /**
   * Sends a fuzzed request and checks what holds for every answer (no 5xx, the Error object, the
   * rate-limit headers and request id; a row created exactly on 201); the caller checks the outcome.
   */
  exchange: (request: RawRequest) => Promise<{ response: RawResponse; outcome: string }>;
  close: () => Promise<void>;
}

/**
 * How far the service's clock moves per request: callers without a valid key share one address
 * and at most 1000 requests a minute (the `business` plan), and 100 ms per request keeps them at
 * 600 a minute, however many runs are asked for.
 */
const CLOCK_STEP_MS = 100;

/**
 * The real application on a real socket: the same factory as main.ts, a database of its own, the
 * in-process limiter, and callers without a valid key limited at the `business` plan. The clock
 * is a fake one moved on by each request, so the anonymous quota never interferes. The server
 * log is silent unless FUZZ_LOG_LEVEL names a level (FUZZ_LOG_LEVEL=error shows the stack behind a 500).
 */
export async function startFuzzTarget(options: Omit<TestAppOptions, 'clock'> = {}): Promise<FuzzTarget> {
  const clock = new FakeClock();
  const t = await createTestApp({
    ...options,
    clock,
    env: { RATE_LIMIT_ANONYMOUS_PLAN: 'business', LOG_LEVEL: process.env.FUZZ_LOG_LEVEL ?? 'silent', ...options.env },
  });
  await t.app.listen(0, '127.0.0.1');
  const client = new RawHttpClient(new URL(await t.app.getUrl()));
  const send = (request: RawRequest) => {
    clock.advance(CLOCK_STEP_MS);
    return client.send(request);
  };
  const countPets = async () => Number((await t.dataSource.query<Array<{ n: number }>>('SELECT COUNT(*) AS n FROM pets'))[0].n);
  return {
    t,
    clock,
    send,
    exchange: async (request) => {
      const rowsBefore = await countPets();
      const response = await send(request);
      checkResponse(request, response);
      checkRowsCreated(rowsBefore, await countPets(), request, response);
      return { response, outcome: outcomeOf(response) };
    },
    close: async () => {
      client.close();
      await t.close();
    },
  };
}
