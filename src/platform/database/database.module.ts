import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TerminusModule } from '@nestjs/terminus';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseHealthIndicator } from './database.health.js';
import type { DatabaseConfig } from './database.config.js';
import { TransactionHost } from './transaction-host.js';
import { buildTypeOrmOptions } from './typeorm-options.js';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService) => ({
        ...buildTypeOrmOptions(config.getOrThrow<DatabaseConfig>('database')),
        autoLoadEntities: true,
      }),
    }),
    TerminusModule,
  ],
  providers: [DatabaseHealthIndicator, TransactionHost],
  exports: [TransactionHost],
})
export class DatabaseModule {}
