import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyKey } from './entities/idempotency-key.entity.js';
import { ExpiredKeysPurge } from './expired-keys.purge.js';
import { IdempotencyKeysRepository } from './idempotency-keys.repository.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyLocks } from './idempotency-locks.js';

@Module({
  imports: [TypeOrmModule.forFeature([IdempotencyKey])],
  providers: [IdempotencyKeysRepository, IdempotencyLocks, IdempotencyInterceptor, ExpiredKeysPurge],
  exports: [IdempotencyInterceptor],
})
export class IdempotencyModule {}
