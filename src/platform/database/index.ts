export { buildTypeOrmOptions, type DatabaseConfig } from './database.config.js';
export { DatabaseModule, TransactionHost } from './database.module.js';
export { embeddedPostgres, freeLoopbackPort, PostgresCluster } from './embedded-postgres.js';
