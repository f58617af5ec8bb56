import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyKey } from './entities/idempotency-key.entity.js';
import { ExpiredKeysPurge, IdempotencyKeysRepository } from './idempotency-keys.repository.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { ModuleParts } from '../../common/index.js';
import { IdempotencyConflictException, IdempotencyKeyReusedException } from './idempotency.exceptions.js';
import { IdempotencyKeys1795219200000 } from './migrations/1795219200000-idempotency-keys.js';
import { CompletedIdempotencyKeys1796083200000 } from './migrations/1796083200000-completed-idempotency-keys.js';

@ModuleParts({
  migrations: [IdempotencyKeys1795219200000, CompletedIdempotencyKeys1796083200000],
  errors: [IdempotencyConflictException, IdempotencyKeyReusedException],
})
@Module({
  imports: [TypeOrmModule.forFeature([IdempotencyKey])],
  providers: [IdempotencyKeysRepository, IdempotencyInterceptor, ExpiredKeysPurge],
  exports: [IdempotencyInterceptor],
})
export class IdempotencyModule {}
