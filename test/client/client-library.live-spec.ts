import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import {
  ApiError,
  ConflictError,
  InternalServerError,
  PetsClient,
  RateLimitError,
  type ClientOptions,
  type Pet,
} from '../../client/src/index.js';
import { Fleet } from '../fleet/fleet.js';
import { awayFromMinuteEnd, sleep } from '../fleet/load.js';
import { Summary } from '../fleet/metrics.js';
import { freePort } from '../support/service-process.js';
import { RecordingFetch, type Exchange } from './recording-fetch.js';

/**
 * The client library against the real service (`npm run test:client-live`, not part of `npm test`):
 * two replicas of the built service on PostgreSQL (DATABASE_URL, a database this suite empties:
 * pets_client in CI) and Redis (REDIS_URL, under a key prefix of its own), behind HAProxy running
 * docker/haproxy.cfg, all on loopback. The library is imported from its sources; `npm run
 * test:client` checks the packed package.
 */
const DATABASE_URL = process.env.DATABASE_URL ?? '';
const REDIS_URL = process.env.REDIS_URL ?? '';
const UNREACHED = ['--per-minute', '1000000', '--per-day', '100000000'];
const MINUTE_QUOTA_CALLS_BOUND = 300;
const summary = new Summary('Client library suite summary');

/**
 * Answers a later version of the service could give, which this library has never seen: a status
 * and a code it does not know, a known status with a new code, a new 5xx, and a body that is not
 * the Error object. HAProxy gives them for these paths; everything else reaches the replicas.
 */
const FUTURE_ANSWERS = [
  `http-request return status 451 content-type application/json string '{"code":"legal_hold","message":"A court holds this animal.","status":451}' if { path /v1/pets/451 }`,
  `http-request return status 409 content-type application/json string '{"code":"adoption_in_progress","message":"Someone is adopting it.","status":409}' if { path /v1/pets/409 }`,
  `http-request return status 507 content-type application/json string '{"code":"storage_full","message":"No room for more.","status":507}' if { path /v1/pets/507 }`,
  `http-request return status 418 content-type text/plain string "I'm a teapot" if { path /v1/pets/418 }`,
];

/** Runs `calls` with `workers` at a time, in order of index; resolves with their results. */
async function inParallel<T>(workers: number, calls: number, call: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < calls) {
        const index = next++;
        results[index] = await call(index);
      }
    }),
  );
  return results;
}

async function rejectionOf(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => undefined,
    (error: unknown) => error,
  );
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

describe('the client library against two replicas behind HAProxy, on PostgreSQL and Redis', () => {
  const prefix = `client-${randomUUID()}:`;
  const database = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 5_000 });
  const query = async <T>(sql: string, values: unknown[] = []) => (await database.query(sql, values)).rows as T[];
  let fleet: Fleet;
  const run = Date.now().toString(36);

  const clientFor = (key: string, recorder: RecordingFetch, options: Partial<ClientOptions> = {}) =>
    new PetsClient({ apiKey: key, baseUrl: `${fleet.haproxy.url}/v1`, fetch: recorder.fetch, onDeprecation: () => undefined, ...options });

  beforeAll(async () => {
    if (!/^postgres(ql)?:\/\//.test(DATABASE_URL) || !/^rediss?:\/\//.test(REDIS_URL)) {
      throw new Error('DATABASE_URL (a PostgreSQL database this suite empties: postgres://…/pets_client) and REDIS_URL must be set');
    }
    const [first, second, balancer] = [await freePort(), await freePort(), await freePort()];
    fleet = new Fleet({
      database: DATABASE_URL,
      redisUrl: REDIS_URL,
      redisKeyPrefix: prefix,
      ports: { replicas: [first, second], haproxy: balancer },
      haproxyRules: FUTURE_ANSWERS,
    });
    await database.connect();
    await query('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
    await fleet.start();
  }, 120_000);

  afterAll(async () => {
    await fleet?.stop();
    await database.end();
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    summary.print();
  });

  it('drives a free key over its minute quota: it waits Retry-After, every call succeeds, the key is never suspended', async () => {
    const { key } = await fleet.newKey('--plan', 'free', '--name', 'client minute');
    const recorder = new RecordingFetch();
    const client = clientFor(key, recorder);
    const refusals = () => recorder.withStatus(429);
    // Done once a request sent after a refusal's Retry-After has been admitted: the wait was needed and it worked.
    const waitedOut = () =>
      recorder.exchanges.some(
        (exchange) =>
          exchange.status === 201 &&
          refusals().some((refused) => exchange.sentAt >= refused.receivedAt! + refused.retryAfterSeconds! * 1000),
      );
    let calls = 0;
    const created = await Promise.all(
      Array.from({ length: 4 }, async (_, worker) => {
        const pets: Pet[] = [];
        while (!waitedOut()) {
          if (++calls > MINUTE_QUOTA_CALLS_BOUND) throw new Error(`${MINUTE_QUOTA_CALLS_BOUND} creations and no refusal waited out`);
          pets.push(await client.pets.create({ name: `minute ${run} ${worker}-${calls}`, categoryId: 1, status: 'sold' }));
        }
        return pets;
      }),
    );

    const pets = created.flat();
    expect(pets).toHaveLength(calls);
    expect(new Set(pets.map((pet) => pet.id)).size).toBe(calls);
    expect(refusals().length).toBeGreaterThan(0);
    expect(refusals().every((refused) => refused.code === 'rate_limit_exceeded' && refused.idempotencyKey)).toBe(true);
    // Each refused call's own retry (same Idempotency-Key) waits its Retry-After; other workers' calls wait theirs.
    const waits = refusals().map((refused) => {
      const retries = recorder.exchanges.filter(
        (exchange) => exchange.idempotencyKey === refused.idempotencyKey && exchange.sentAt > refused.receivedAt!,
      );
      const soonest = Math.min(...retries.map((exchange) => exchange.sentAt)) - refused.receivedAt!;
      return { retryAfterMs: refused.retryAfterSeconds! * 1000, soonest };
    });
    for (const { retryAfterMs, soonest } of waits) expect(soonest).toBeGreaterThanOrEqual(retryAfterMs);
    await expect(client.rateLimit()).resolves.toMatchObject({ plan: 'free' });
    summary.add(
      'Free key over its minute quota',
      `${calls} creations by 4 workers, all 201 in the end; ${refusals().length} answers 429 rate_limit_exceeded, none api_key_suspended (30 suspend)`,
      ...waits.map(
        ({ retryAfterMs, soonest }) => `Retry-After ${seconds(retryAfterMs)}: the next request left ${seconds(soonest)} after the 429`,
      ),
    );
  });

  it('stops at a key past its day quota: one request, a RateLimitError naming the reset, no retry', async () => {
    const { key } = await fleet.newKey('--plan', 'enterprise', '--per-minute', '1000', '--per-day', '3', '--name', 'client day');
    const recorder = new RecordingFetch();
    const client = clientFor(key, recorder);
    await awayFromMinuteEnd(10); // the admitted and the refused creations in one UTC day
    for (let call = 0; call < 3; call++) await client.pets.create({ name: `day ${run} ${call}`, categoryId: 1, status: 'sold' });

    const before = recorder.exchanges.length;
    const error = await rejectionOf(client.pets.create({ name: `day ${run} refused`, categoryId: 1, status: 'sold' }));
    const midnight = new Date(new Date().setUTCHours(24, 0, 0, 0));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', window: 'day', resetAt: midnight });
    const { retryAfterSeconds, message } = error as RateLimitError;
    expect(Math.abs(retryAfterSeconds - (midnight.getTime() - Date.now()) / 1000)).toBeLessThan(10);
    expect(message).toContain(`the day window resets at ${midnight.toISOString()}`);
    expect(recorder.exchanges.length - before).toBe(1);
    expect(await query('SELECT 1 FROM pets WHERE name = $1', [`day ${run} refused`])).toHaveLength(0);
    summary.add('Key past its day quota', `1 request; ${String(error)}`);
  });

  it('lists 1,000 animals with for await, each exactly once, in id order', async () => {
    const { key } = await fleet.newKey('--plan', 'enterprise', '--name', 'client list', ...UNREACHED);
    const recorder = new RecordingFetch();
    const client = clientFor(key, recorder);
    const created = await inParallel(8, 1_000, (index) =>
      client.pets.create({ name: `list ${run} ${index}`, categoryId: 4, status: 'pending' }),
    );

    const pagesBefore = recorder.exchanges.length;
    const listed: number[] = [];
    for await (const pet of client.pets.list({ status: 'pending' })) listed.push(pet.id);
    const pages = recorder.exchanges.length - pagesBefore;

    const stored = await query<{ id: string }>("SELECT id FROM pets WHERE status = 'pending' ORDER BY id");
    expect(listed).toHaveLength(1_000);
    expect(new Set(listed).size).toBe(1_000);
    expect(listed).toEqual(stored.map((row) => Number(row.id)));
    expect(listed).toEqual(created.map((pet) => pet.id).sort((a, b) => a - b));
    expect(pages).toBe(50);
    summary.add(
      '1,000 animals with for await',
      `${listed.length} listed, ${new Set(listed).size} distinct, in id order, over ${pages} pages of 20 through both replicas`,
    );
  });

  it('gives an answer it does not know a typed error, and retries only what the rules say', async () => {
    const { key } = await fleet.newKey('--plan', 'enterprise', '--name', 'client future', ...UNREACHED);
    const recorder = new RecordingFetch();
    const client = clientFor(key, recorder);
    const answer = async (petId: number) => {
      const before = recorder.exchanges.length;
      const error = await rejectionOf(client.pets.get(petId));
      return { error: error as ApiError, requests: recorder.exchanges.length - before };
    };

    const legal = await answer(451);
    expect(legal.error.constructor).toBe(ApiError);
    expect(legal).toEqual({
      error: expect.objectContaining({ status: 451, code: 'legal_hold', message: 'A court holds this animal.' }),
      requests: 1,
    });
    const adopting = await answer(409);
    expect(adopting.error).toBeInstanceOf(ConflictError);
    expect(adopting).toEqual({ error: expect.objectContaining({ status: 409, code: 'adoption_in_progress' }), requests: 1 });
    const full = await answer(507);
    expect(full.error).toBeInstanceOf(InternalServerError);
    expect(full).toEqual({ error: expect.objectContaining({ status: 507, code: 'storage_full' }), requests: 3 });
    const teapot = await answer(418);
    expect(teapot.error.constructor).toBe(ApiError);
    expect(teapot).toEqual({ error: expect.objectContaining({ status: 418, code: 'unexpected_response' }), requests: 1 });
    expect(teapot.error.message).toContain(`"I'm a teapot"`);
    summary.add(
      'Answers the library does not know',
      ...[legal, adopting, full, teapot].map(
        ({ error, requests }) => `${error.name} ${error.status} ${error.code}, ${requests} request(s)`,
      ),
    );
  });

  it('survives a replica killed during 200 creations: each call resolves to one animal, none twice in the database', async () => {
    const { key } = await fleet.newKey('--plan', 'enterprise', '--name', 'client kill', ...UNREACHED);
    const recorder = new RecordingFetch();
    // A batch job riding out a replica's death: more retries than the default, so the 409s of the
    // killed replica's creations (until PostgreSQL ends its backends, about a second) never exhaust them.
    const client = clientFor(key, recorder, { maxRetries: 6 });
    const workers = 8;
    const name = (index: number) => `kill ${run} ${index}`;
    let resolved = 0;
    const locker = new pg.Client({ connectionString: DATABASE_URL });
    await locker.connect();
    try {
      // Once 50 calls are done, the pets table is locked (no creation can end) until all 8 calls are in
      // flight, some on the first replica (HAProxy's round robin), which is then killed: those calls
      // resolve only through the library's retries.
      let killedServing = 0;
      const killing = (async () => {
        while (resolved < 50) await sleep(20);
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE pets IN EXCLUSIVE MODE');
        const inFlight = () =>
          recorder.exchanges.filter((exchange) => exchange.receivedAt === undefined && exchange.error === undefined).length;
        for (const deadline = Date.now() + 20_000; inFlight() < workers || killedServing === 0;) {
          if (Date.now() > deadline) throw new Error(`${inFlight()} calls in flight, ${killedServing} on the first replica`);
          await sleep(20);
          killedServing = (await fleet.haproxy.servers())[0].sessions;
        }
        await fleet.replicas[0].kill();
        const killedAt = performance.now();
        await sleep(500);
        await locker.query('COMMIT');
        return killedAt;
      })();
      const creating = inParallel(workers, 200, async (index) => {
        const pet = await client.pets.create({ name: name(index), categoryId: 2 });
        resolved++;
        return pet;
      });
      const [killedAt, pets] = await Promise.all([killing, creating]);

      expect(pets.map((pet) => pet.name)).toEqual(Array.from({ length: 200 }, (_, index) => name(index)));
      expect(new Set(pets.map((pet) => pet.id)).size).toBe(200);
      const rows = await query<{ name: string; copies: number }>(
        'SELECT name, count(*)::int AS copies FROM pets WHERE name LIKE $1 GROUP BY name ORDER BY name',
        [`kill ${run} %`],
      );
      expect(rows).toHaveLength(200);
      const duplicates = rows.filter((row) => row.copies > 1);
      expect(duplicates).toEqual([]);
      const afterKill = recorder.exchanges.filter((exchange) => exchange.sentAt >= killedAt - 1_000);
      const failed = (exchange: Exchange) => exchange.status === undefined || exchange.status >= 500 || exchange.status === 409;
      const retried = recorder.exchanges.length - 200;
      expect(retried).toBeGreaterThan(0);
      summary.add(
        'Replica killed during 200 creations',
        `killed while serving ${killedServing} of the 8 creations in flight; 200 calls resolved to 200 animals; 0 names stored twice (${duplicates.length} duplicates); ${recorder.exchanges.length} requests, ${retried} of them retries`,
        `answers that were retried: ${JSON.stringify(
          afterKill.filter(failed).reduce<Record<string, number>>((counts, { status, code, error }) => {
            const label = status === undefined ? `no answer (${error})` : `${status} ${code ?? ''}`.trim();
            return { ...counts, [label]: (counts[label] ?? 0) + 1 };
          }, {}),
        )}`,
      );
    } finally {
      await locker.end();
    }
  });
});
