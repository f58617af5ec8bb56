export { databaseConfig, type DatabaseConfig } from './database.config.js';
export { DatabaseModule } from './database.module.js';
export { embeddedPostgres } from './embedded-postgres.js';
export { freeLoopbackPort, PostgresCluster } from './postgres-cluster.js';
export { TransactionHost } from './transaction-host.js';
export { buildTypeOrmOptions } from './typeorm-options.js';
