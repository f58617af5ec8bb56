import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TransactionHost } from '../../platform/database/index.js';
import { DataSource } from 'typeorm';
import { IdempotencyKey } from './entities/idempotency-key.entity.js';
import { ExpiredKeysPurge } from './expired-keys.purge.js';
import { IdempotencyKeysRepository } from './idempotency-keys.repository.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { AdvisoryLocks, IdempotencyLocks, InProcessLocks } from './idempotency-locks.js';

@Module({
  imports: [TypeOrmModule.forFeature([IdempotencyKey])],
  providers: [
    IdempotencyKeysRepository,
    {
      provide: IdempotencyLocks,
      inject: [DataSource, TransactionHost],
      useFactory: (dataSource: DataSource, txHost: TransactionHost) =>
        dataSource.options.type === 'postgres' ? new AdvisoryLocks(txHost) : new InProcessLocks(),
    },
    IdempotencyInterceptor,
    ExpiredKeysPurge,
  ],
  exports: [IdempotencyInterceptor],
})
export class IdempotencyModule {}
