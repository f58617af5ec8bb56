import { randomUUID } from 'node:crypto';
import { describeNeighbours } from '../support/neighbours.behaviour.js';
import { redisReplicas } from '../support/redis-replicas.js';
import { TcpProxy } from '../support/tcp-proxy.js';

/** The Redis limiter, whose windows follow Redis's clock: one replica, then two behind one Redis. */
const replicas = redisReplicas();

/** Waits until 20 s or more remain in Redis's minute, so the 70 requests and a burst share one window. */
async function awayFromMinuteEnd(): Promise<void> {
  const [now] = await replicas.admin.time();
  const left = 60 - (Number(now) % 60);
  if (left < 20) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 100));
}

/** The replicas reach Redis through it, so a test can cut them off. */
let proxy: TcpProxy | undefined;
afterEach(() => proxy?.cut());

for (const count of [1, 2]) {
  describeNeighbours(
    `Redis limiter, ${count} replica${count > 1 ? 's' : ''}`,
    async () => {
      // Each test under a prefix of its own, so the address one test counted is fresh in the next.
      const REDIS_KEY_PREFIX = `${replicas.env.REDIS_KEY_PREFIX}${randomUUID().slice(0, 8)}:`;
      const redis = new URL(replicas.env.REDIS_URL);
      proxy = new TcpProxy(redis.hostname, Number(redis.port || 6379));
      await proxy.start();
      const REDIS_URL = `redis://127.0.0.1:${proxy.port}${redis.pathname}`;
      // This suite checks the windows Redis counts. On a loaded machine a command can outlast the 250 ms default
      // and fall back to counting in process (faults.md's bound); the cut below fails at once whatever the timeout.
      const REDIS_COMMAND_TIMEOUT_MS = '2000';
      const started = await Promise.all(
        Array.from({ length: count }, () => replicas.start({ REDIS_KEY_PREFIX, REDIS_URL, REDIS_COMMAND_TIMEOUT_MS })),
      );
      const cutStore = () => proxy!.cut();
      return { replicas: started, databaseUrl: replicas.env.DATABASE_URL, awayFromMinuteEnd, cutStore };
    },
    { storeOutage: true },
  );
}
