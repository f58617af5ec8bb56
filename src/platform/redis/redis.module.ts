import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { RedisConfig } from './redis.config.js';
import { createRedisClient, firstConnection, type RedisClient } from './redis-client.js';
import { ModuleParts } from '../../common/index.js';
import { redisConfig } from './redis.config.js';

/** The shared Redis client, or `undefined` when no Redis is configured (the embedded default). */
export const REDIS_CLIENT = Symbol('REDIS_CLIENT');

@ModuleParts({ config: [redisConfig] })
@Global()
@Module({
  providers: [
    {
      provide: REDIS_CLIENT,
      inject: [ConfigService],
      useFactory: async (config: ConfigService): Promise<RedisClient | undefined> => {
        const redis = createRedisClient(config.getOrThrow<RedisConfig>('redis'));
        if (redis) await firstConnection(redis);
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
