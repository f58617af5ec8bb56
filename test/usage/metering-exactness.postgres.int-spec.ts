import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Cluster } from 'ioredis';
import pg from 'pg';
import { HttpClient, type Answer } from '../fleet/http-client.js';
import { sleep, startLoad } from '../fleet/load.js';
import { emptyDatabase } from '../support/test-databases.js';
import { RedisCluster } from '../support/redis-cluster.js';
import { freePort, ServiceProcess } from '../support/service-process.js';

/**
 * What docs/operations.md ("Usage metering") promises, shown on real processes: two replicas of the
 * built service (`node dist/src/main.js`) on the PostgreSQL named by DATABASE_URL and a 3-master
 * Redis Cluster on ports 17101 to 17103 (and their buses, 27101 to 27103), started here; needs
 * `redis-server` and `redis-cli` 7. The limiter's own count of a client's day is its day counter in
 * Redis; what metering recorded is the sum of the client's rows in usage_days.
 */
/** A database of this suite's own (test/support/test-databases.ts). */
const DATABASE_URL = await emptyDatabase();
const DEFAULT_FLUSH_INTERVAL_MS = 10_000;
/** Where a test compares while the replicas run, they flush this often, so it waits for a second, not ten. */
const SHORT_FLUSH_INTERVAL_MS = 1_000;
const WORKERS_PER_REPLICA = 6;
const STOP_BOUND_MS = 15_000;
const cluster = new RedisCluster([17101, 17102, 17103]);
const prefix = `usage-${randomUUID()}:`;

function replica(port: number, flushIntervalMs?: number): ServiceProcess {
  return new ServiceProcess(port, {
    NODE_ENV: 'production',
    ALLOWED_HOSTS: '127.0.0.1',
    DATABASE_URL,
    REDIS_CLUSTER_NODES: cluster.nodes,
    REDIS_KEY_PREFIX: prefix,
    // A starved machine must not send a replica to its in-process fallback, whose admissions Redis never counts.
    REDIS_COMMAND_TIMEOUT_MS: '2000',
    SHUTDOWN_READINESS_DELAY_MS: '300',
    SHUTDOWN_GRACE_MS: '5000',
    LOG_LEVEL: 'warn',
    ...(flushIntervalMs !== undefined && { USAGE_FLUSH_INTERVAL_MS: String(flushIntervalMs) }),
  });
}

/** A new client and its key, made by the command-line tool. */
function newKey(perMinute: number, perDay: number): { key: string; clientId: number } {
  const args = ['keys', 'create', '--plan', 'enterprise', '--per-minute', String(perMinute), '--per-day', String(perDay), '--json'];
  const result = spawnSync(process.execPath, ['dist/src/cli.js', ...args], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.status !== 0) throw new Error(`keys create failed: ${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout) as { key: string; clientId: number };
}

/** The limiter's day counter of the client: the UTC day it counts and what it admitted on it. */
async function limiterCount(clientId: number): Promise<{ day: string; admitted: number }> {
  const redis = new Cluster(cluster.ports.map((port) => ({ host: '127.0.0.1', port })));
  try {
    const [day, admitted] = await redis.hmget(`${prefix}rl:{c:${clientId}}`, 'd', 'dc');
    return { day: new Date(Number(day) * 86_400_000).toISOString().slice(0, 10), admitted: Number(admitted) };
  } finally {
    redis.disconnect();
  }
}

/** What metering recorded for the client, per UTC day. */
async function recorded(clientId: number): Promise<Record<string, { admitted: number; refused: number }>> {
  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  try {
    const { rows } = await db.query<{ day: string; admitted: string; refused: string }>(
      'SELECT day::text AS day, sum(admitted) AS admitted, sum(refused) AS refused FROM usage_days WHERE client_id = $1 GROUP BY day',
      [clientId],
    );
    return Object.fromEntries(rows.map(({ day, admitted, refused }) => [day, { admitted: Number(admitted), refused: Number(refused) }]));
  } finally {
    await db.end();
  }
}

const total = (days: Record<string, { admitted: number; refused: number }>, kind: 'admitted' | 'refused') =>
  Object.values(days).reduce((sum, day) => sum + day[kind], 0);

/**
 * A closed-loop load with `key`, WORKERS_PER_REPLICA workers pinned to each replica; a worker whose
 * replica does not answer (stopped or killed) pauses briefly. Every answer is kept with its replica
 * and the moment it came.
 */
function loadOn(replicas: ServiceProcess[], key: string) {
  const clients = replicas.map((r) => new HttpClient(r.url));
  const answers: Array<Answer & { replica: number; at: number }> = [];
  const load = startLoad(replicas.length * WORKERS_PER_REPLICA, async (worker) => {
    const replicaIndex = worker % replicas.length;
    const answer = await clients[replicaIndex].send({ path: '/v1/pets?limit=1', headers: { Authorization: `Bearer ${key}` } });
    answers.push({ ...answer, replica: replicaIndex, at: performance.now() });
    if (answer.status === 0) await sleep(50);
  });
  return {
    answers,
    stop: async () => {
      await load.stop();
      for (const client of clients) client.close();
    },
  };
}

const count = (answers: Answer[], status: number) => answers.filter((answer) => answer.status === status).length;
const fellBack = (replicas: ServiceProcess[]) => replicas.filter((r) => r.log().includes('Redis cannot be reached')).length;

describe('usage metering on two replicas, PostgreSQL and a Redis Cluster: exactness (integration, real processes)', () => {
  let a: ServiceProcess;
  let b: ServiceProcess;
  let ports: number[];

  beforeAll(async () => {
    await cluster.start();
    ports = [await freePort(), await freePort()];
    [a, b] = ports.map((port) => replica(port, SHORT_FLUSH_INTERVAL_MS));
    // One after the other: the first applies the migrations.
    await a.start();
    await b.start();
  }, 90_000);
  afterAll(async () => {
    await Promise.all([a?.kill(), b?.kill()]);
    await cluster.stop();
  });

  it("records exactly the limiter's count of admitted requests, and every 429, while the replicas run", async () => {
    const { key, clientId } = newKey(1_000_000, 1_000);
    const load = loadOn([a, b], key);
    const deadline = Date.now() + 10_000;
    while (count(load.answers, 429) < 300 && Date.now() < deadline) await sleep(100);
    await load.stop();

    const limiter = await limiterCount(clientId);
    let days = await recorded(clientId);
    const waitUntil = Date.now() + 3 * SHORT_FLUSH_INTERVAL_MS + 5_000;
    while (
      (days[limiter.day]?.admitted !== limiter.admitted || total(days, 'refused') !== count(load.answers, 429)) &&
      Date.now() < waitUntil
    ) {
      await sleep(200);
      days = await recorded(clientId);
    }
    console.log(
      `periodic flushes: ${load.answers.length} requests, ${count(load.answers, 200)} × 200, ${count(load.answers, 429)} × 429; ` +
        `limiter's count ${limiter.admitted} on ${limiter.day}; recorded ${JSON.stringify(days)}`,
    );
    expect(fellBack([a, b])).toBe(0);
    expect(limiter.admitted).toBe(1_000);
    expect(days[limiter.day].admitted).toBe(limiter.admitted);
    expect(total(days, 'admitted')).toBe(count(load.answers, 200));
    expect(total(days, 'refused')).toBe(count(load.answers, 429));
  }, 60_000);

  it('loses nothing when a replica restarts gracefully (SIGTERM) under load, nor when both stop', async () => {
    const { key, clientId } = newKey(1_000_000, 100_000_000);
    const load = loadOn([a, b], key);
    await sleep(1_500);
    const stopped = await a.stop(STOP_BOUND_MS);
    await a.start();
    await sleep(1_000);
    await load.stop();
    await Promise.all([a.stop(STOP_BOUND_MS), b.stop(STOP_BOUND_MS)]);

    const limiter = await limiterCount(clientId);
    const days = await recorded(clientId);
    console.log(
      `graceful restart: replica A stopped in ${stopped.ms.toFixed(0)} ms (${stopped.exit}) under load; ${load.answers.length} requests, ` +
        `${count(load.answers, 200)} × 200, ${count(load.answers, 0)} unanswered while it was down; ` +
        `limiter's count ${limiter.admitted} on ${limiter.day}; recorded ${JSON.stringify(days)}`,
    );
    expect(fellBack([a, b])).toBe(0);
    expect(days[limiter.day].admitted).toBe(limiter.admitted);
    expect(total(days, 'admitted')).toBeGreaterThanOrEqual(count(load.answers, 200));
    expect(total(days, 'refused')).toBe(0);
  }, 60_000);

  it('loses at most its last flush interval of counts when a replica is killed (SIGKILL), at the default interval', async () => {
    // The replicas of the tests before are stopped, unless those failed half-way.
    await Promise.all([a.kill(), b.kill()]);
    [a, b] = ports.map((port) => replica(port));
    await Promise.all([a.start(), b.start()]);
    const { key, clientId } = newKey(1_000_000, 100_000_000);
    const load = loadOn([a, b], key);
    // Past one flush of A's, at a moment of its cycle the test does not choose.
    await sleep(DEFAULT_FLUSH_INTERVAL_MS + 500 + Math.random() * 1_000);
    const killedAt = performance.now();
    await a.kill();
    await sleep(500);
    await load.stop();
    await b.stop(STOP_BOUND_MS);

    const limiter = await limiterCount(clientId);
    const days = await recorded(clientId);
    const lost = limiter.admitted - (days[limiter.day]?.admitted ?? 0);
    // What A decided in its last interval: the requests it answered then, and those in flight (one per worker).
    const lastInterval = load.answers.filter(
      (x) => x.replica === 0 && x.status !== 0 && x.at > killedAt - DEFAULT_FLUSH_INTERVAL_MS,
    ).length;
    const rate = lastInterval / (DEFAULT_FLUSH_INTERVAL_MS / 1000);
    // 10 % for a flush whose timer fired late on a busy machine.
    const bound = 1.1 * lastInterval + WORKERS_PER_REPLICA;
    console.log(
      `kill -9: replica A answered ${lastInterval} requests in the ${DEFAULT_FLUSH_INTERVAL_MS / 1000} s before SIGKILL (${rate.toFixed(0)}/s); ` +
        `limiter's count ${limiter.admitted}, recorded ${days[limiter.day]?.admitted ?? 0}: ${lost} counts lost, ` +
        `${(lost / rate).toFixed(1)} s of A's requests (bound ${bound.toFixed(0)}: those requests + 10 % + ${WORKERS_PER_REPLICA} in flight)`,
    );
    expect(fellBack([a, b])).toBe(0);
    expect(lost).toBeGreaterThanOrEqual(0);
    expect(lost).toBeLessThanOrEqual(bound);
  }, 90_000);
});
