import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Clock } from '../../common/index.js';
import { REDIS_CLIENT, type RedisClient, type RedisConfig } from '../../platform/redis/index.js';
import { DatabaseIdempotencyStore } from './database-idempotency.store.js';
import { IdempotencyKey } from './entities/idempotency-key.entity.js';
import { ExpiredKeysPurge } from './expired-keys.purge.js';
import { FailoverIdempotencyStore } from './failover-idempotency.store.js';
import { IdempotencyKeysRepository } from './idempotency-keys.repository.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyStore } from './idempotency.store.js';
import { RedisIdempotencyStore } from './redis-idempotency.store.js';

/** With Redis configured: Redis, falling back to the database while it is out. Without: the database. */
function createIdempotencyStore(
  redis: RedisClient | undefined,
  config: ConfigService,
  database: DatabaseIdempotencyStore,
): IdempotencyStore {
  if (!redis) return database;
  const primary = new RedisIdempotencyStore(redis, config.getOrThrow<RedisConfig>('redis').keyPrefix);
  return new FailoverIdempotencyStore(primary, database, redis);
}

/**
 * Idempotent creation (`Idempotency-Key`). Controllers apply `IdempotencyInterceptor` to the
 * operations that create; it needs the store, which is exported with it.
 */
@Module({
  imports: [TypeOrmModule.forFeature([IdempotencyKey])],
  providers: [
    IdempotencyKeysRepository,
    {
      provide: DatabaseIdempotencyStore,
      inject: [IdempotencyKeysRepository, Clock],
      useFactory: (keys: IdempotencyKeysRepository, clock: Clock) => new DatabaseIdempotencyStore(keys, clock),
    },
    {
      provide: IdempotencyStore,
      inject: [REDIS_CLIENT, ConfigService, DatabaseIdempotencyStore],
      useFactory: createIdempotencyStore,
    },
    IdempotencyInterceptor,
    ExpiredKeysPurge,
  ],
  exports: [IdempotencyInterceptor, IdempotencyStore, DatabaseIdempotencyStore],
})
export class IdempotencyModule implements OnApplicationShutdown {
  constructor(@Inject(IdempotencyStore) private readonly store: IdempotencyStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
