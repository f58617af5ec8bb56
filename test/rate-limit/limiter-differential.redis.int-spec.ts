import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { InProcessStore } from '../../src/policies/rate-limit/in-process.store.js';
import type { BanPolicy, LimiterRequest } from '../../src/policies/rate-limit/limiter.store.js';
import { RedisStore } from '../../src/policies/rate-limit/redis.store.js';
import type { PlanLimits } from '../../src/modules/plans/index.js';
import { FakeClock } from '../support/fake-clock.js';

/**
 * The in-process store writes the limiter script's rules again in TypeScript; this property holds
 * the two equal. Random request sequences go through both: the script on the real Redis named by
 * REDIS_URL (RedisStore, the clock given as ARGV), the TypeScript rules in an InProcessStore on the
 * same fake clock. Every decision must be the same, every field of it.
 *
 * A sequence mixes keyed clients (several keys each) and anonymous addresses, small limits, ban
 * thresholds and durations, and a clock that never goes back: it stays on the same millisecond,
 * steps a little or a lot, or lands on (or 1 ms around) the next minute, the next midnight or the
 * end of the last suspension.
 *
 * The fake clock runs years ahead of Redis's own, so Redis never expires a subject by itself;
 * before each request the harness deletes the subject's hash once its PEXPIREAT instant has come
 * by the fake clock. It deletes at that instant, as the in-process table forgets a record; Redis
 * itself keeps a key 1 ms longer. That millisecond shows in one case only, which this property
 * finds when the harness waits the extra 1 ms: a request at exactly midnight from a key whose ban
 * outlasts the day, after another key of the same client set the subject's expiry to midnight
 * (the script keeps a subject until the end of the day or the ban of the key deciding, not of the
 * client's other keys).
 */
const REDIS_URL = process.env.REDIS_URL!;
const SEED = 20261123;
const RUNS = 1_000;
/** Generous: a failure shrinks its counterexample on Redis, which takes far longer than a pass (about 7 s). */
const TIMEOUT_MS = 300_000;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const KEY_IDS = 3;

interface Subject {
  keyed: boolean;
  /** Two plans, so a client may change plan (and limits) between requests. */
  plans: [PlanLimits, PlanLimits];
}

type Step = { by: number } | { to: 'minute' | 'midnight' | 'ban end'; offset: -1 | 0 | 1 };

interface Call {
  subject: number;
  keyId: number;
  plan: 0 | 1;
  step: Step;
}

interface Scenario {
  startMs: number;
  ban: BanPolicy;
  subjects: Subject[];
  calls: Call[];
}

const limits = fc.record({ perMinute: fc.integer({ min: 0, max: 6 }), perDay: fc.integer({ min: 0, max: 20 }) });
const offset = fc.constantFrom<-1 | 0 | 1>(-1, 0, 1);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ by: 0 }) },
  { weight: 4, arbitrary: fc.record({ by: fc.integer({ min: 1, max: 2_000 }) }) },
  { weight: 2, arbitrary: fc.record({ by: fc.integer({ min: 1, max: 3 * MINUTE_MS }) }) },
  { weight: 1, arbitrary: fc.record({ by: fc.integer({ min: 1, max: 2 * DAY_MS }) }) },
  { weight: 2, arbitrary: fc.record({ to: fc.constant('minute' as const), offset }) },
  { weight: 1, arbitrary: fc.record({ to: fc.constant('midnight' as const), offset }) },
  { weight: 2, arbitrary: fc.record({ to: fc.constant('ban end' as const), offset }) },
);
const scenario: fc.Arbitrary<Scenario> = fc.record({
  // 2100, far ahead of Redis's clock; often in the last minutes of a day.
  startMs: fc
    .oneof(fc.integer({ min: 0, max: DAY_MS - 1 }), fc.integer({ min: DAY_MS - 3 * MINUTE_MS, max: DAY_MS - 1 }))
    .map((ms) => Date.parse('2100-06-01T00:00:00Z') + ms),
  ban: fc.record({
    threshold: fc.integer({ min: 1, max: 5 }),
    durationMs: fc.oneof(
      fc.integer({ min: 0, max: 5_000 }),
      fc.integer({ min: 0, max: 3 * MINUTE_MS }),
      fc.integer({ min: 0, max: 2 * DAY_MS }),
    ),
  }),
  subjects: fc.array(fc.record({ keyed: fc.boolean(), plans: fc.tuple(limits, limits) }), { minLength: 1, maxLength: 4 }),
  calls: fc.array(
    fc.record({
      subject: fc.nat(3),
      keyId: fc.integer({ min: 1, max: KEY_IDS }),
      plan: fc.oneof({ weight: 5, arbitrary: fc.constant<0 | 1>(0) }, { weight: 1, arbitrary: fc.constant<0 | 1>(1) }),
      step,
    }),
    { minLength: 1, maxLength: 80, size: 'max' },
  ),
});

/** The instant a step moves the clock to: never back. */
function after(nowMs: number, step: Step, lastBanEndMs: number): number {
  if ('by' in step) return nowMs + step.by;
  const target =
    step.to === 'minute'
      ? (Math.floor(nowMs / MINUTE_MS) + 1) * MINUTE_MS
      : step.to === 'midnight'
        ? (Math.floor(nowMs / DAY_MS) + 1) * DAY_MS
        : lastBanEndMs;
  return Math.max(nowMs, target + step.offset);
}

describe('in-process limiter (TypeScript) against the limiter script in Redis (integration)', () => {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  const clock = new FakeClock();
  const lua = new RedisStore(redis, clock);
  const prefix = `test:limiter-differential:${randomUUID()}:`;

  afterAll(async () => {
    const left = await redis.keys(`${prefix}*`);
    if (left.length > 0) await redis.del(...left);
    await redis.quit();
  });

  /** What Redis would have done by the fake clock: forget the hash once its expiry instant has come. */
  const expireByFakeClock = async (key: string, nowMs: number) => {
    const expiresAtMs = await redis.pexpiretime(key);
    if (expiresAtMs >= 0 && expiresAtMs <= nowMs) await redis.del(key);
  };

  it(
    'decides every random request sequence exactly as the script does',
    async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async ({ startMs, ban, subjects, calls }) => {
          clock.set(new Date(startMs));
          const typescript = new InProcessStore(clock, { clients: 1_000, addresses: 1_000 });
          const run = `${prefix}${randomUUID()}:`;
          const keys = subjects.map(({ keyed }, i) => `${run}{${keyed ? 'c' : 'ip'}:${i}}`);
          /** The end of the last suspension seen, or of the one the last refusal of a key would have set. */
          let lastBanEndMs = startMs;
          try {
            for (const [i, call] of calls.entries()) {
              clock.set(new Date(after(clock.now().getTime(), call.step, lastBanEndMs)));
              const subject = call.subject % subjects.length;
              const request: LimiterRequest = {
                subjectKey: keys[subject],
                keyId: subjects[subject].keyed ? call.keyId : undefined,
                limits: subjects[subject].plans[call.plan],
                ban,
              };
              await expireByFakeClock(request.subjectKey, clock.now().getTime());
              const expected = await lua.consume(request);
              const actual = await typescript.consume(request);
              // The same facts, each store naming itself as the one that decided.
              expect({ decision: i, ...actual, store: 'redis' }).toEqual({ decision: i, ...expected });
              expect([expected.store, actual.store]).toEqual(['redis', 'in-process']);
              if (expected.outcome === 'suspended') lastBanEndMs = expected.suspendedUntilMs;
              if (expected.outcome === 'refused' && request.keyId !== undefined) lastBanEndMs = expected.nowMs + ban.durationMs;
            }
          } finally {
            await redis.del(...keys);
          }
        }),
        { seed: SEED, numRuns: RUNS },
      );
    },
    TIMEOUT_MS,
  );
});
