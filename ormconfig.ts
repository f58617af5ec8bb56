import { DataSource } from 'typeorm';
import { buildTypeOrmOptions, databaseConfig, embeddedPostgres } from './src/platform/database/index.js';
import { validateEnvironment } from './src/platform/config/index.js';

// The TypeORM CLI's data source (`npm run migration:run`): same options factory as the app. Without
// DATABASE_URL it migrates the embedded PostgreSQL, and leaves it running for the service to find.
validateEnvironment(process.env);
const config = databaseConfig();
export default new DataSource(buildTypeOrmOptions(config.url ?? (await embeddedPostgres.url()), { ...config, migrationsRun: false }));
