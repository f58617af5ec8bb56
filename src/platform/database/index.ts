/** The TypeORM connection, its configuration and the transaction a request's writes share. */
export { databaseConfig, type DatabaseConfig } from './database.config.js';
export { DatabaseModule } from './database.module.js';
export { DeferredTransaction } from './deferred-transaction.js';
export { buildTypeOrmOptions } from './typeorm-options.js';
