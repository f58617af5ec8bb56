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
import { AppParts, ModuleParts } from '../../common/index.js';
import { InitialSchema1767225600000 } from './migrations/1767225600000-initial-schema.js';
import { databaseConfig } from './database.config.js';

/** The schema's beginning (pets, clients, api_keys) is the database module's; each later change is its module's. */
@ModuleParts({ config: [databaseConfig], migrations: [InitialSchema1767225600000] })
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [ConfigService, AppParts],
      // Every module's entities (forFeature) and migrations (its parts).
      useFactory: async (config: ConfigService, parts: AppParts) => {
        const database = config.getOrThrow<DatabaseConfig>('database');
        return {
          ...buildTypeOrmOptions(database.url ?? (await embeddedPostgres.url()), database, parts.migrations),
          autoLoadEntities: true,
        };
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
