import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { REDIS_CLIENT, type RedisClient, type RedisConfig } from '../redis/index.js';
import { CachedReadInterceptor } from './cached-read.interceptor.js';
import { DataGeneration } from './data-generation.js';
import { ReadCache } from './read-cache.js';
import { RedisGeneration } from './redis-generation.js';
import { NoGeneration, SqliteGeneration } from './sqlite-generation.js';

/** The generation the replicas share: in Redis when there is one; else SQLite's own; else none. */
function createGeneration(redis: RedisClient | undefined, dataSource: DataSource, config: ConfigService): DataGeneration {
  if (redis) return new RedisGeneration(redis, `${config.getOrThrow<RedisConfig>('redis').keyPrefix}generation`);
  if (dataSource.options.type !== 'better-sqlite3') return new NoGeneration();
  const dataVersion = (dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection
    .prepare('PRAGMA data_version')
    .pluck();
  return new SqliteGeneration(() => dataVersion.get() as number);
}

interface SqliteConnection {
  prepare(sql: string): { pluck(): { get(): unknown } };
}

@Module({
  providers: [
    { provide: DataGeneration, inject: [REDIS_CLIENT, getDataSourceToken(), ConfigService], useFactory: createGeneration },
    ReadCache,
    CachedReadInterceptor,
  ],
  exports: [DataGeneration, ReadCache, CachedReadInterceptor],
})
export class ReadCacheModule {}
