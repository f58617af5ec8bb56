import { once } from 'node:events';
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { RedisConfig } from './redis.config.js';

export type RedisClient = Redis | Cluster;

const CONNECT_TIMEOUT_MS = 2_000;

/**
 * A Redis (or Cluster) client that fails fast: no offline queue, no command retries, a bounded
 * command time, reconnecting in the background. A tick's commands leave in one write
 * (auto-pipelining), except on a Cluster, where a command pipelined to a node not yet connected
 * fails ("Connection is closed", test/rate-limit/cluster.redis.int-spec.ts).
 */
export function createRedisClient(config: RedisConfig): RedisClient | undefined {
  const options: RedisOptions = {
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 0,
    commandTimeout: config.commandTimeoutMs,
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  };
  if (config.clusterNodes.length > 0) {
    return new Cluster(config.clusterNodes, {
      enableOfflineQueue: false,
      // A slot that no live node serves (CLUSTERDOWN) fails at once, instead of being retried
      // every 100 ms up to 16 times: the feature's fallback answers meanwhile.
      retryDelayOnClusterDown: 0,
      redisOptions: options,
      clusterRetryStrategy: options.retryStrategy,
    });
  }
  return config.url ? new Redis(config.url, options) : undefined;
}

/**
 * Waits, at most the connect timeout, for the first connection, so an instance does not begin
 * on the fallback (and count apart from the other replicas) only because it is still connecting.
 * If Redis is down, the instance starts anyway and the limiter serves from its fallback.
 */
export async function firstConnection(redis: RedisClient): Promise<void> {
  if (redis.status === 'ready') return;
  await once(redis, 'ready', { signal: AbortSignal.timeout(CONNECT_TIMEOUT_MS) }).catch(() => undefined);
}
