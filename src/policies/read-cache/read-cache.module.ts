import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Cluster } from 'ioredis';
import { ClsService } from 'nestjs-cls';
import { ModuleParts, type RequestContext } from '../../common/index.js';
import { REDIS_CLIENT, type RedisClient, type RedisConfig } from '../../platform/redis/index.js';
import { ClusterGeneration, DataGeneration, LocalGeneration, RedisGeneration } from './data-generation.js';
import { ReadCache, readCacheConfig } from './read-cache.js';
import { ReadCacheInterceptor } from './read-cache.interceptor.js';

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
