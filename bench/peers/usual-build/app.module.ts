import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { days, minutes, ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Redis } from 'ioredis';
import { ApiKey } from '../../../src/modules/auth/entities/api-key.entity.js';
import { Pet } from '../../../src/modules/pets/entities/pet.entity.js';
import { Client } from '../../../src/modules/plans/entities/client.entity.js';
import { BearerGuard } from './bearer.guard.js';
import { callerOf } from './caller.js';
import { HealthController } from './health.controller.js';
import { PetsController } from './pets.controller.js';
import { REDIS, RedisModule, requiredEnv } from './redis.module.js';
import { RedisThrottlerStorage } from './redis-throttler.storage.js';

/** Prefix of the throttler's Redis keys (the benchmark gives its own). */
const KEY_PREFIX = process.env.REDIS_KEY_PREFIX ?? 'throttler:';

@Module({
  imports: [
    RedisModule,
    TypeOrmModule.forRoot({
      type: 'postgres',
      url: requiredEnv('DATABASE_URL'),
      entities: [Pet, ApiKey, Client],
      synchronize: false,
      parseInt8: true,
    }),
    TypeOrmModule.forFeature([Pet, ApiKey, Client]),
    ThrottlerModule.forRootAsync({
      inject: [REDIS],
      useFactory: (redis: Redis) => ({
        throttlers: [
          { name: 'minute', ttl: minutes(1), limit: (context) => callerOf(context).limits.perMinute },
          { name: 'day', ttl: days(1), limit: (context) => callerOf(context).limits.perDay },
        ],
        // One quota per key across every route (the default key is per controller method).
        getTracker: (_request, context) => callerOf(context).keyHash,
        generateKey: (_context, tracker) => tracker,
        storage: new RedisThrottlerStorage(redis, KEY_PREFIX),
      }),
    }),
  ],
  controllers: [PetsController, HealthController],
  providers: [
    // Global guards run in this order: who the caller is, then its plan's throttlers.
    { provide: APP_GUARD, useClass: BearerGuard },
    { provide: APP_GUARD, useClass: ThrottlerGuard },
  ],
})
export class AppModule {}
