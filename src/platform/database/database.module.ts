import { Global, Injectable, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TerminusModule, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClsService } from 'nestjs-cls';
import type { Pool } from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { AppParts, ModuleParts, type RequestContext } from '../../common/index.js';
import { ReadinessIndicator, type ReadinessCheck } from '../health/index.js';
import { buildTypeOrmOptions, databaseConfig, type DatabaseConfig } from './database.config.js';
import { embeddedPostgres } from './embedded-postgres.js';
import { InitialSchema1767225600000 } from './migrations/1767225600000-initial-schema.js';

/** The one way writes join a transaction (docs/extending.md): `tx` is the manager of the one `withTransaction` runs, via nestjs-cls. */
@Injectable()
export class TransactionHost {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cls: ClsService<RequestContext>,
  ) {}

  get tx(): EntityManager {
    return this.cls.get('transaction') ?? this.dataSource.manager;
  }

  /** Runs `work` in a transaction, or in the one it is already in; also outside a request (the command-line tool). */
  withTransaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.cls.get('transaction')) return work();
    return this.dataSource.transaction((transaction) => this.cls.runWith({ ...this.cls.get(), transaction }, work));
  }
}

/** Readiness fails while the database does not answer a ping within 2 s. */
@ReadinessIndicator()
@Injectable()
class DatabaseHealthIndicator implements ReadinessCheck {
  constructor(private readonly typeOrm: TypeOrmHealthIndicator) {}

  check() {
    return this.typeOrm.pingCheck('database', { timeout: 2_000 });
  }
}

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
        const url = database.url ?? (await embeddedPostgres.url());
        return { ...buildTypeOrmOptions(url, database, parts.migrations), autoLoadEntities: true };
      },
    }),
    TerminusModule,
  ],
  providers: [DatabaseHealthIndicator, TransactionHost],
  exports: [TransactionHost],
})
export class DatabaseModule implements OnModuleInit, OnApplicationShutdown {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * A query past DATABASE_QUERY_TIMEOUT_MS gives up in the driver, not in PostgreSQL, and the ROLLBACK queued behind it
   * can time out too: TypeORM then hands the connection back inside its open transaction, where the next request's
   * COMMIT would save what this one answered 503 for. Such a connection is closed, which ends its transaction unsaved.
   */
  onModuleInit(): void {
    const pool = (this.dataSource.driver as PostgresDriver).master as Pool;
    pool.on('release', (_error, client) => {
      if (client.getTransactionStatus() !== 'I') void client.end();
    });
  }

  /** The embedded server stops once this process's connections are closed, whichever module's hook runs first. */
  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await embeddedPostgres.release();
  }
}
