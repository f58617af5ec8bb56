import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Cluster } from 'ioredis';
import { REDIS_CLIENT, type RedisClient, type RedisConfig } from '../../platform/redis/index.js';
import { DataGeneration, LocalGeneration } from './data-generation.js';
import { ReadCache } from './read-cache.js';
import { ReadCacheInterceptor } from './read-cache.interceptor.js';
import { ClusterGeneration, RedisGeneration } from './redis-generation.js';

function createGeneration(redis: RedisClient | undefined, config: ConfigService): DataGeneration {
  if (!redis) return new LocalGeneration();
  const key = `${config.getOrThrow<RedisConfig>('redis').keyPrefix}generation`;
  return redis instanceof Cluster ? new ClusterGeneration(redis, key) : new RedisGeneration(redis, key);
}

@Module({
  providers: [
    { provide: DataGeneration, inject: [REDIS_CLIENT, ConfigService], useFactory: createGeneration },
    ReadCache,
    ReadCacheInterceptor,
  ],
  exports: [DataGeneration, ReadCacheInterceptor],
})
export class ReadCacheModule {}
