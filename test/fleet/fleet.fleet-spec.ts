import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { OtlpReceiver } from '../support/otlp-receiver.js';
import { RedisCluster } from '../support/redis-cluster.js';
import { ThrowawayPostgres } from '../support/throwaway-postgres.js';
import { Fleet, QUERY_TIMEOUT_MS, STOP_BOUND_MS, readinessDelayMs } from './fleet.js';
import { HttpClient, byStatus, isErrorObject, percentile, type Answer } from './http-client.js';
import { awayFromMinuteEnd, sleep, startLoad } from './load.js';
import { Summary, metricSum } from './metrics.js';

/**
 * The service as a fleet (`npm run test:fleet`, not part of `npm test`): a 3-master Redis Cluster,
 * PgBouncer in transaction mode in front of PostgreSQL, 3 replicas of the built service and HAProxy
 * running docker/haproxy.cfg, all on loopback. DATABASE_URL names the PostgreSQL database the fleet
 * uses (emptied and migrated here); the PostgreSQL-stop scenario starts a server of its own.
 * Ports: FLEET_PORT_BASE (default 17600) and the 40 above it, plus 10000 above the Redis ports
 * (the cluster bus).
 */
const DATABASE_URL = process.env.DATABASE_URL ?? '';
const BASE = Number(process.env.FLEET_PORT_BASE || 17_600);
const FREE_PER_MINUTE = 60;
const REPLICAS = 3;
const UNREACHED = ['--per-minute', '1000000', '--per-day', '100000000'];
const cluster = new RedisCluster([BASE, BASE + 1, BASE + 2]);
const summary = new Summary();

const auth = (key: string) => ({ Authorization: `Bearer ${key}` });
const create = (key: string, name: string, idempotencyKey?: string) => ({
  method: 'POST' as const,
  path: '/v1/pets',
  headers: { ...auth(key), ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}) },
  body: { name, categoryId: 1 },
});
const list = (key: string) => ({ path: '/v1/pets?limit=5', headers: auth(key) });
const idOf = (answer: Answer) => (answer.body as { id: number }).id;
const latency = (answers: Answer[]) => {
  const ms = answers.map((answer) => answer.ms);
  return `p50 ${percentile(ms, 0.5)} ms, p99 ${percentile(ms, 0.99)} ms, max ${percentile(ms, 1)} ms`;
};

async function query<T>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The ids among `ids` that are not in the pets table. */
async function missing(url: string, ids: number[]): Promise<number[]> {
  const found = await query<{ id: string }>(url, 'SELECT id FROM pets WHERE id = ANY($1::bigint[])', [ids]);
  const present = new Set(found.map((row) => Number(row.id)));
  return ids.filter((id) => !present.has(id));
}

/** Registers the hooks that start `fleet` (after `prepare`) and stop it (then `dispose`); returns its client through HAProxy. */
function serve(fleet: Fleet, prepare: () => unknown, dispose: () => void = () => undefined): () => HttpClient {
  let client: HttpClient | undefined;
  beforeAll(async () => {
    await prepare();
    await fleet.start();
    client = new HttpClient(fleet.haproxy.url);
  }, 90_000);
  afterAll(async () => {
    client?.close();
    await fleet.stop();
    dispose();
  });
  return () => client!;
}

beforeAll(async () => {
  if (!/^postgres(ql)?:\/\//.test(DATABASE_URL)) {
    throw new Error('DATABASE_URL must name the PostgreSQL database of the fleet suite (emptied by it): postgres://…/pets_fleet');
  }
  await cluster.start();
}, 30_000);
afterAll(async () => {
  await cluster.stop();
  summary.print();
});

describe('a fleet: 3 replicas behind HAProxy, PgBouncer, a 3-master Redis Cluster', () => {
  const prefix = `fleet-${randomUUID()}:`;
  const fleet = new Fleet({
    database: DATABASE_URL,
    redisClusterNodes: cluster.nodes,
    redisKeyPrefix: prefix,
    ports: { pgbouncer: BASE + 10, replicas: [BASE + 11, BASE + 12, BASE + 13], haproxy: BASE + 14 },
  });
  const http = serve(fleet, () => query(DATABASE_URL, 'DROP SCHEMA public CASCADE; CREATE SCHEMA public;'));

  it('admits exactly the quota through the balancer: a free client, and each anonymous address on its own', async () => {
    const client = http();
    const { key } = await fleet.newKey('--plan', 'free', '--name', 'fleet quota');
    const [second, third] = [new HttpClient(fleet.haproxy.url, '127.0.0.2'), new HttpClient(fleet.haproxy.url, '127.0.0.3')];
    const burst = (sender: HttpClient, headers: Record<string, string>) =>
      Promise.all(Array.from({ length: 100 }, () => sender.send({ path: '/v1/pets?limit=1', headers })));
    await awayFromMinuteEnd(20);
    const keyed = await burst(client, auth(key));
    const anonymous = await burst(second, {});
    // A forged header naming the exhausted address: HAProxy appends the real one, the replicas believe only that.
    const forged = await burst(third, { 'X-Forwarded-For': '127.0.0.2' });
    second.close();
    third.close();

    // A Redis command past REDIS_COMMAND_TIMEOUT_MS on a starved machine is a real failure of its
    // slot: the replica then counts that subject in process, within the documented bound.
    const fallbacks = fleet.replicas.map((replica) => replica.log().split('Redis cannot be reached').length - 1);
    const admittedPerReplica = await Promise.all(
      fleet.replicas.map(async (replica) => {
        const metrics = await (await fetch(`${replica.url}/metrics`)).text();
        return {
          free: metricSum(metrics, 'rate_limit_decisions_total', { plan: 'free', outcome: 'admitted' }),
          freeDecided: metricSum(metrics, 'rate_limit_decisions_total', { plan: 'free' }),
          anonymous: metricSum(metrics, 'rate_limit_decisions_total', { plan: 'anonymous', outcome: 'admitted' }),
        };
      }),
    );
    summary.add(
      'Exact quotas through HAProxy',
      `free client, 100 concurrent: ${JSON.stringify(byStatus(keyed))}; decided per replica ${admittedPerReplica.map((r) => r.freeDecided).join(' + ')}, admitted ${admittedPerReplica.map((r) => r.free).join(' + ')}`,
      `anonymous from 127.0.0.2, 100 concurrent: ${JSON.stringify(byStatus(anonymous))}`,
      `anonymous from 127.0.0.3 claiming X-Forwarded-For 127.0.0.2: ${JSON.stringify(byStatus(forged))}`,
      `anonymous admitted per replica ${admittedPerReplica.map((r) => r.anonymous).join(' + ')}; Redis fallbacks per replica ${fallbacks.join(', ')}`,
    );
    const admitted = (answers: Answer[], status: number) => answers.filter((answer) => answer.status === status).length;
    const admittedByReplicas = admittedPerReplica.reduce((sum, r) => sum + r.free, 0);
    if (fallbacks.every((count) => count === 0)) {
      expect(byStatus(keyed)).toEqual({ 200: FREE_PER_MINUTE, 429: 100 - FREE_PER_MINUTE });
      expect(byStatus(anonymous)).toEqual({ 401: FREE_PER_MINUTE, 429: 100 - FREE_PER_MINUTE });
      expect(byStatus(forged)).toEqual({ 401: FREE_PER_MINUTE, 429: 100 - FREE_PER_MINUTE });
      // Together the replicas admitted exactly the quota.
      expect(admittedByReplicas).toBe(FREE_PER_MINUTE);
    }
    expect(admitted(keyed, 200)).toBeLessThanOrEqual((REPLICAS + 1) * FREE_PER_MINUTE);
    // Each address has a quota of its own: the forged header did not move 127.0.0.3 onto 127.0.0.2's.
    expect(admitted(forged, 401)).toBeGreaterThanOrEqual(FREE_PER_MINUTE);
    expect(byStatus([...keyed, ...anonymous, ...forged])).toEqual(expect.not.objectContaining({ 500: expect.anything() }));
    // Round robin: every replica decided some of them; their metrics count what the client saw.
    expect(admittedPerReplica.every((r) => r.freeDecided > 0)).toBe(true);
    expect(admittedByReplicas).toBe(admitted(keyed, 200));
  }, 60_000);

  it('restarts every replica in turn under load with no failed request and no lost 201', async () => {
    const client = http();
    const { key } = await fleet.newKey('--plan', 'enterprise', '--name', 'fleet rolling', ...UNREACHED);
    const answers: Answer[] = [];
    const load = startLoad(6, async (worker) => {
      const created = await client.send(create(key, `Rolling ${worker}`));
      const listed = await client.send(list(key));
      answers.push(created, listed);
    });
    const restarts: string[] = [];
    try {
      await sleep(1_000);
      for (const [index, replica] of fleet.replicas.entries()) {
        const signalled = performance.now();
        let outAfterMs = -1;
        const watch = (async () => {
          while (outAfterMs < 0 && performance.now() - signalled < STOP_BOUND_MS) {
            if ((await fleet.haproxy.servers())[index].status === 'DOWN') outAfterMs = performance.now() - signalled;
            else await sleep(50);
          }
        })();
        const stopped = await replica.stop(STOP_BOUND_MS);
        await watch;
        await replica.start();
        await fleet.haproxy.untilServer(index, 'UP', 20_000);
        const back = performance.now() - signalled;
        restarts.push(
          `api-${index + 1}: out of rotation ${Math.round(outAfterMs)} ms after SIGTERM, exited after ${Math.round(stopped.ms)} ms (${stopped.exit}), serving again after ${Math.round(back)} ms`,
        );
        expect(outAfterMs).toBeGreaterThan(0);
        expect(outAfterMs).toBeLessThan(readinessDelayMs());
      }
      await sleep(1_000);
    } finally {
      await load.stop();
    }
    const failed = answers
      .filter((answer) => answer.status !== 200 && answer.status !== 201)
      .map(({ status, body, error, ms }) => ({ status, body, error, ms }));
    const ids = answers.filter((answer) => answer.status === 201).map(idOf);
    const lost = await missing(DATABASE_URL, ids);
    summary.add(
      'Rolling restart under load',
      `${answers.length} requests (${ids.length} creations, 6 at a time): ${JSON.stringify(byStatus(answers))}, failed ${failed.length}; ${latency(answers)}`,
      `201s whose id is not in the database: ${lost.length}`,
      ...restarts,
    );
    expect(failed).toEqual([]);
    expect(ids.length).toBeGreaterThan(0);
    expect(lost).toEqual([]);
  }, 180_000);

  it('tells a retry the outcome of a creation whose replica was killed, within 2 s: the first 201 or one new animal', async () => {
    const client = http();
    const { key } = await fleet.newKey('--plan', 'enterprise', '--name', 'fleet killed', ...UNREACHED);
    const RETRY_FOR_MS = 10_000;
    let killedAt = Number.POSITIVE_INFINITY;
    const keys: Array<{ name: string; id?: number; attempts: number; conflictsAfterKillMs: number[] }> = [];
    const load = startLoad(6, async () => {
      const name = `Killed ${randomUUID()}`;
      const entry: (typeof keys)[number] = { name, attempts: 0, conflictsAfterKillMs: [] };
      keys.push(entry);
      const call = create(key, name, name.slice(7));
      for (const started = performance.now(); performance.now() - started < RETRY_FOR_MS; await sleep(100)) {
        entry.attempts += 1;
        const answer = await client.send(call);
        if (answer.status === 201) return void (entry.id = idOf(answer));
        if (answer.status === 409) entry.conflictsAfterKillMs.push(performance.now() - killedAt);
      }
    });
    await sleep(1_000);
    killedAt = performance.now();
    await fleet.replicas[0].kill();
    await sleep(3_000);
    await load.stop();
    await fleet.replicas[0].start();
    await fleet.haproxy.untilServer(0, 'UP', 20_000);

    const animals = await query<{ name: string; count: string }>(
      DATABASE_URL,
      'SELECT name, count(*) AS count FROM pets WHERE name = ANY($1::text[]) GROUP BY name',
      [keys.map((entry) => entry.name)],
    );
    const twice = animals.filter((row) => Number(row.count) > 1).map((row) => row.name);
    const unanswered = keys.filter((entry) => entry.id === undefined).map((entry) => entry.name);
    const lastConflictMs = Math.max(0, ...keys.flatMap((entry) => entry.conflictsAfterKillMs));
    const retried = keys.filter((entry) => entry.attempts > 1).length;
    summary.add(
      'A replica killed (SIGKILL) under idempotent creations',
      `${keys.length} keys, each retried every 100 ms until its 201: ${animals.length} animals; keys with two: ${twice.length}; never answered 201: ${unanswered.length}`,
      `keys retried after a failed attempt: ${retried}; last 409 to a retry: ${Math.round(lastConflictMs)} ms after the kill`,
    );
    expect(retried).toBeGreaterThan(0);
    expect(twice).toEqual([]);
    expect(unanswered).toEqual([]);
    expect(animals).toHaveLength(keys.length);
    expect(lastConflictMs).toBeLessThan(2_000);
  }, 120_000);

  it('keeps answering when a Redis Cluster master dies under load: first 201s replayed, quota within its bound, no 5xx; back on Redis after', async () => {
    const client = http();
    const free = await fleet.newKey('--plan', 'free', '--name', 'fleet cluster quota');
    const subject = (clientId: number) => `${prefix}rl:{c:${clientId}}`;
    const victim = await cluster.masterOf(subject(free.clientId));
    // Idempotency lives in PostgreSQL alone: a dead master changes nothing for its retries.
    const creator = await fleet.newKey('--plan', 'enterprise', '--name', 'fleet cluster creator', ...UNREACHED);
    await awayFromMinuteEnd(30);

    const COUNTED_BEFORE = 10;
    for (let i = 0; i < COUNTED_BEFORE; i++) expect((await client.send(list(free.key))).status).toBe(200);
    const earlier: Array<{ call: ReturnType<typeof create>; first: Answer }> = [];
    for (let i = 0; i < 20; i++) {
      const call = create(creator.key, `Before ${i}`, `before-${randomUUID()}`);
      const first = await client.send(call);
      expect(first.status).toBe(201);
      earlier.push({ call, first });
    }

    let faulted = false;
    const during: Answer[] = [];
    const replays: Array<{ first: Answer; retry: Answer }> = [];
    const quota: Answer[] = [];
    const quotaBeforeKill: Answer[] = [];
    const record = (answer: Answer) => {
      if (faulted) during.push(answer);
      return answer;
    };
    let counter = 0;
    const load = startLoad(5, async (worker) => {
      const n = counter++;
      if (worker === 0) {
        // Sent before the kill, a request is decided (and counted) by Redis: it belongs to "what Redis counted".
        const sentInFault = faulted;
        const answer = await client.send(list(free.key));
        (sentInFault ? quota : quotaBeforeKill).push(answer);
        await sleep(30);
      } else if (n % 3 === 0) {
        const { call, first } = earlier[n % earlier.length];
        replays.push({ first, retry: record(await client.send(call)) });
      } else if (n % 3 === 1) {
        const call = create(creator.key, `During ${n}`, `during-${randomUUID()}`);
        const first = record(await client.send(call));
        const retry = record(await client.send(call));
        if (first.status === 201) replays.push({ first, retry });
      } else {
        record(await client.send(list(creator.key)));
      }
    });
    const killed = { at: 0, markedFailedMs: 0 };
    try {
      await sleep(1_000);
      faulted = true;
      killed.at = performance.now();
      await cluster.kill(victim);
      killed.markedFailedMs = performance.now() - killed.at;
      await sleep(6_000);
    } finally {
      await load.stop();
    }
    faulted = false;
    const countedByRedis = COUNTED_BEFORE + quotaBeforeKill.filter((answer) => answer.status === 200).length;
    const admitted = countedByRedis + quota.filter((answer) => answer.status === 200).length;
    const bound = REPLICAS * FREE_PER_MINUTE + countedByRedis;
    const fiveHundreds = [...during, ...quota, ...quotaBeforeKill]
      .filter((answer) => answer.status >= 500 || answer.status === 0)
      .map(({ status, body, error }) => ({ status, body, error }));
    const wrongReplays = replays
      .filter(({ first, retry }) => retry.status !== 201 || idOf(retry) !== idOf(first))
      .map(({ first, retry }) => ({ first: first.body, retry: { status: retry.status, body: retry.body } }));

    await cluster.restart(victim);
    const restarted = performance.now();
    const readiness = await Promise.all(
      fleet.replicas.map(async (replica) => {
        for (;;) {
          const [ready, metrics] = await Promise.all([
            fetch(`${replica.url}/health/ready`).then(
              (response) => response.json() as Promise<{ info?: { rateLimiter?: { status?: string } } }>,
            ),
            fetch(`${replica.url}/metrics`).then((response) => response.text()),
          ]);
          const limiter = ready.info?.rateLimiter?.status;
          if (limiter === 'up' && metricSum(metrics, 'rate_limiter_degraded') === 0) return performance.now() - restarted;
          if (performance.now() - restarted > 20_000) throw new Error(`replica ${replica.port} still degraded: ${JSON.stringify(ready)}`);
          await sleep(200);
        }
      }),
    );
    const after = await client.send(list(free.key));
    const node = new Redis({ host: '127.0.0.1', port: victim, lazyConnect: true, maxRetriesPerRequest: 0 });
    await node.connect();
    const counted = await node.hgetall(subject(free.clientId));
    node.disconnect();

    summary.add(
      'Redis Cluster master killed under load',
      `master :${victim} (the free client's slot) SIGKILLed, marked failed after ${Math.round(killed.markedFailedMs)} ms; 6 s of load after`,
      `during the fault: ${during.length + quota.length} requests ${JSON.stringify(byStatus([...during, ...quota]))}, 5xx or no answer ${fiveHundreds.length}; ${latency([...during, ...quota])}`,
      `idempotent retries: ${replays.length}, answered with the first 201's id: ${replays.length - wrongReplays.length}`,
      `free client: ${admitted} admitted in the minute (${countedByRedis} counted by Redis before the kill + ${admitted - countedByRedis} during), bound replicas x quota + Redis count = ${bound}`,
      `master restarted: every replica's readiness 'up' and rate_limiter_degraded 0 after ${readiness.map((ms) => Math.round(ms)).join(', ')} ms; next request ${after.status}, its count in Redis: ${JSON.stringify(counted)}`,
    );
    expect(fiveHundreds).toEqual([]);
    expect(wrongReplays).toEqual([]);
    expect(replays.length).toBeGreaterThan(0);
    expect(admitted).toBeLessThanOrEqual(bound);
    expect(Object.keys(counted).length).toBeGreaterThan(0);
  }, 120_000);
});

describe('one trace crossing HAProxy to a replica', () => {
  // Tracing on these replicas only: the other scenarios' figures are measured without it.
  const receiver = new OtlpReceiver();
  const receiverPort = BASE + 34;
  const fleet = new Fleet({
    database: DATABASE_URL,
    redisClusterNodes: cluster.nodes,
    redisKeyPrefix: `fleet-${randomUUID()}:`,
    ports: { pgbouncer: BASE + 30, replicas: [BASE + 31, BASE + 32], haproxy: BASE + 33 },
    replicaEnv: {
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiverPort}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    },
  });
  const http = serve(
    fleet,
    async () => {
      await receiver.start(receiverPort);
      await query(DATABASE_URL, 'DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
    },
    () => void receiver.close(),
  );

  it("continues the caller's trace on the replica that served the request", async () => {
    const client = http();
    const { key } = await fleet.newKey('--plan', 'pro', '--name', 'fleet traced');
    const [traceId, parentId] = [randomBytes(16).toString('hex'), randomBytes(8).toString('hex')];
    const answer = await client.send({ ...list(key), headers: { ...auth(key), traceparent: `00-${traceId}-${parentId}-01` } });
    expect(answer.status).toBe(200);

    const spans = await receiver.trace(traceId, (arrived) => arrived.some((span) => span.name === 'GET /v1/pets'), 30_000);
    const servers = spans.filter((span) => span.kind === 2);
    expect(servers).toHaveLength(1);
    const [server] = servers;
    const served = fleet.replicas.findIndex((replica) => replica.pid === server.resource['process.pid']);
    summary.add(
      'One trace through HAProxy',
      `traceparent ${traceId}/${parentId}: server span ${server.name} on api-${served + 1} (pid ${String(server.resource['process.pid'])}), parent ${server.parentSpanId}; ${spans.length} spans: ${[...new Set(spans.map(({ name }) => name))].join(', ')}`,
    );
    expect(server.parentSpanId).toBe(parentId);
    expect(server.attributes).toEqual(
      expect.objectContaining({ 'http.route': '/v1/pets', 'http.response.header.x-request-id': [answer.headers['x-request-id']] }),
    );
    expect(served).toBeGreaterThanOrEqual(0);
    expect(server.resource).toEqual(expect.objectContaining({ 'service.name': 'pet-adoption-service', 'host.name': expect.any(String) }));
    expect(spans.filter((span) => span.parentSpanId === server.spanId).map(({ name }) => name)).toContain('rate_limit.decision');
  }, 60_000);
});

describe('PostgreSQL stopped for 5 s behind PgBouncer', () => {
  const postgres = new ThrowawayPostgres(BASE + 20);
  const fleet = new Fleet({
    database: postgres.url,
    redisClusterNodes: cluster.nodes,
    redisKeyPrefix: `fleet-${randomUUID()}:`,
    ports: { pgbouncer: BASE + 21, replicas: [BASE + 22, BASE + 23, BASE + 24], haproxy: BASE + 25 },
  });
  const http = serve(
    fleet,
    () => postgres.init(),
    () => postgres.dispose(),
  );

  it('answers 503 Error objects within the query timeout while it is down, and recovers without a restart', async () => {
    const client = http();
    const { key } = await fleet.newKey('--plan', 'enterprise', '--name', 'fleet database', ...UNREACHED);
    const pids = fleet.replicas.map((replica) => replica.pid);
    const answers: Array<Answer & { sentAt: number }> = [];
    const origin = performance.now();
    const load = startLoad(4, async (worker) => {
      for (const call of [create(key, `Outage ${worker}`), list(key)]) {
        const sentAt = performance.now() - origin;
        answers.push({ ...(await client.send(call)), sentAt });
      }
      await sleep(20);
    });
    let stoppedAt = 0;
    let startedAt = 0;
    let recoveredAt = 0;
    const ready = { afterMs: 0 };
    try {
      await sleep(1_500);
      stoppedAt = performance.now() - origin;
      postgres.stop();
      await sleep(5_000);
      postgres.start();
      startedAt = performance.now() - origin;
      ready.afterMs = Math.max(...(await Promise.all(fleet.replicas.map((replica) => replica.untilReady()))));
      while (recoveredAt === 0) {
        if (performance.now() - origin - startedAt > 30_000) throw new Error('not recovered 30 s after PostgreSQL returned');
        const succeeded = answers.some((answer) => answer.sentAt > startedAt && answer.status === 201);
        if (succeeded) recoveredAt = Math.min(...answers.filter((a) => a.sentAt > startedAt && a.status === 201).map((a) => a.sentAt));
        else await sleep(100);
      }
      await sleep(2_000);
    } finally {
      await load.stop();
    }
    const unavailable = answers.filter((answer) => answer.status === 503);
    const unexpected = answers.filter(
      (answer) => ![200, 201, 503].includes(answer.status) || (answer.status === 503 && !isErrorObject(answer)),
    );
    const inOutage = answers.filter((answer) => answer.sentAt >= stoppedAt && answer.sentAt < recoveredAt);
    const afterwards = answers.filter((answer) => answer.sentAt >= recoveredAt);
    const slowest = Math.max(...answers.map((answer) => answer.ms));
    const ids = answers.filter((answer) => answer.status === 201).map(idOf);
    const lost = await missing(postgres.url, ids);
    summary.add(
      'PostgreSQL stopped 5 s behind PgBouncer',
      `${answers.length} requests: ${JSON.stringify(byStatus(answers))}; 503s that are Error objects: ${unavailable.filter(isErrorObject).length} of ${unavailable.length} (codes ${JSON.stringify([...new Set(unavailable.map((a) => (a.body as { code?: string }).code))])})`,
      `sent while down or recovering: ${inOutage.length}, ${latency(inOutage)} (query timeout ${QUERY_TIMEOUT_MS} ms); slowest of all ${Math.round(slowest)} ms`,
      `after PostgreSQL started again: every replica ready within ${Math.round(ready.afterMs)} ms, first 201 through HAProxy after ${Math.round(recoveredAt - startedAt)} ms; then ${JSON.stringify(byStatus(afterwards))}; replicas restarted: 0`,
      `201s whose id is not in the database: ${lost.length}`,
    );
    expect(unexpected.map(({ status, body }) => ({ status, body }))).toEqual([]);
    expect(unavailable.length).toBeGreaterThan(0);
    expect(slowest).toBeLessThan(QUERY_TIMEOUT_MS + 1_000);
    expect(afterwards.filter((answer) => answer.status >= 500)).toEqual([]);
    expect(fleet.replicas.map((replica) => replica.pid)).toEqual(pids);
    expect(lost).toEqual([]);
  }, 120_000);
});
