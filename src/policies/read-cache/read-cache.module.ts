import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { REDIS_CLIENT, type RedisClient, type RedisConfig } from '../../platform/redis/index.js';
import { CachedReadInterceptor } from './cached-read.interceptor.js';
import { DataGeneration } from './data-generation.js';
import { ReadCache } from './read-cache.js';
import { RedisGeneration } from './redis-generation.js';
import { LocalGeneration } from './local-generation.js';

/** The generation the replicas share, in Redis; without Redis, the one instance's own. */
function createGeneration(redis: RedisClient | undefined, config: ConfigService): DataGeneration {
  return redis ? new RedisGeneration(redis, `${config.getOrThrow<RedisConfig>('redis').keyPrefix}generation`) : new LocalGeneration();
}

@Module({
  providers: [
    { provide: DataGeneration, inject: [REDIS_CLIENT, ConfigService], useFactory: createGeneration },
    ReadCache,
    CachedReadInterceptor,
  ],
  exports: [DataGeneration, ReadCache, CachedReadInterceptor],
})
export class ReadCacheModule {}
