import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { once } from 'node:events';
import { ModuleParts } from '../../common/index.js';
import { redisConfig, type RedisConfig } from './redis.config.js';

export type RedisClient = Redis | Cluster;

/** The shared Redis client, or `undefined` when no Redis is configured (the embedded default). */
export const REDIS_CLIENT = Symbol('REDIS_CLIENT');

const CONNECT_TIMEOUT_MS = 2_000;

/**
 * Fails fast: no offline queue, no retries, a bounded command time, reconnecting in the background.
 * Auto-pipelining except on a Cluster, where it fails to a node not yet connected (cluster.redis.int-spec.ts).
 */
function createRedisClient(config: RedisConfig): RedisClient | undefined {
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

@ModuleParts({ config: [redisConfig] })
@Global()
@Module({
  providers: [
    {
      provide: REDIS_CLIENT,
      inject: [ConfigService],
      useFactory: async (config: ConfigService): Promise<RedisClient | undefined> => {
        const redis = createRedisClient(config.getOrThrow<RedisConfig>('redis'));
        // Waits a little for the first connection, so an instance does not begin on the fallback only because it is still connecting.
        if (redis && redis.status !== 'ready') {
          await once(redis, 'ready', { signal: AbortSignal.timeout(CONNECT_TIMEOUT_MS) }).catch(() => undefined);
        }
        return redis;
      },
    },
  ],
  exports: [REDIS_CLIENT],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS_CLIENT) private readonly redis: RedisClient | undefined) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.quit().catch(() => this.redis?.disconnect());
  }
}
