import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Cluster } from 'ioredis';
import { ClsService } from 'nestjs-cls';
import type { RequestContext } from '../../common/index.js';
import { REDIS_CLIENT, type RedisClient, type RedisConfig } from '../../platform/redis/index.js';
import { DataGeneration, LocalGeneration } from './data-generation.js';
import { ReadCache } from './read-cache.js';
import { ReadCacheInterceptor } from './read-cache.interceptor.js';
import { ClusterGeneration, RedisGeneration } from './redis-generation.js';
import { ModuleParts } from '../../common/index.js';
import { readCacheConfig } from './read-cache.config.js';

function createGeneration(redis: RedisClient | undefined, config: ConfigService, cls: ClsService<RequestContext>): DataGeneration {
  if (!redis) return new LocalGeneration();
  const key = `${config.getOrThrow<RedisConfig>('redis').keyPrefix}generations`;
  return redis instanceof Cluster ? new ClusterGeneration(redis, key, cls) : new RedisGeneration(redis, key, cls);
}

@ModuleParts({ config: [readCacheConfig] })
@Module({
  providers: [
    { provide: DataGeneration, inject: [REDIS_CLIENT, ConfigService, ClsService], useFactory: createGeneration },
    ReadCache,
    ReadCacheInterceptor,
  ],
  exports: [DataGeneration, ReadCacheInterceptor],
})
export class ReadCacheModule {}
