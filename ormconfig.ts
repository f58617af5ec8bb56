import { ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { serverParts } from './src/app.module.js';
import { appConfigModule } from './src/platform/config/index.js';
import { buildTypeOrmOptions, embeddedPostgres, type DatabaseConfig } from './src/platform/database/index.js';

// The TypeORM CLI's data source (`npm run migration:run`): the server's configuration, checked by
// @nestjs/config as the server and the command-line tool check it, and the same options factory.
// Without DATABASE_URL it migrates the embedded PostgreSQL, and leaves it running for the service to find.
const parts = serverParts();
const context = await NestFactory.createApplicationContext(appConfigModule(parts.config, { serving: false }), {
  logger: false,
  abortOnError: false,
});
const database = context.get(ConfigService).getOrThrow<DatabaseConfig>('database');
await context.close();
export default new DataSource(
  buildTypeOrmOptions(database.url ?? (await embeddedPostgres.url()), { ...database, migrationsRun: false }, parts.migrations),
);
