import { once } from 'node:events';
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { RedisConfig } from './redis.config.js';

export type RedisClient = Redis | Cluster;

const CONNECT_TIMEOUT_MS = 2_000;

/**
 * Fails fast: no offline queue, no retries, a bounded command time, reconnecting in the background.
 * Auto-pipelining except on a Cluster, where it fails to a node not yet connected (cluster.redis.int-spec.ts).
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
      // CLUSTERDOWN fails at once, not after 16 retries: the feature's fallback answers meanwhile.
      retryDelayOnClusterDown: 0,
      redisOptions: options,
      clusterRetryStrategy: options.retryStrategy,
    });
  }
  return config.url ? new Redis(config.url, options) : undefined;
}

/** Waits a little for the first connection, so an instance does not begin on the fallback only because it is still connecting. */
export async function firstConnection(redis: RedisClient): Promise<void> {
  if (redis.status === 'ready') return;
  await once(redis, 'ready', { signal: AbortSignal.timeout(CONNECT_TIMEOUT_MS) }).catch(() => undefined);
}
