import { Global, Module, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TerminusModule } from '@nestjs/terminus';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DatabaseHealthIndicator } from './database.health.js';
import type { DatabaseConfig } from './database.config.js';
import { embeddedPostgres } from './embedded-postgres.js';
import { TransactionHost } from './transaction-host.js';
import { buildTypeOrmOptions } from './typeorm-options.js';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [ConfigService],
      useFactory: async (config: ConfigService) => {
        const database = config.getOrThrow<DatabaseConfig>('database');
        return { ...buildTypeOrmOptions(database.url ?? (await embeddedPostgres.url()), database), autoLoadEntities: true };
      },
    }),
    TerminusModule,
  ],
  providers: [DatabaseHealthIndicator, TransactionHost],
  exports: [TransactionHost],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(private readonly dataSource: DataSource) {}

  /** The embedded server stops once this process's connections are closed, whichever module's hook runs first. */
  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await embeddedPostgres.release();
  }
}
