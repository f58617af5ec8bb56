import { DataSource } from 'typeorm';
import { buildTypeOrmOptions, databaseConfig } from './src/platform/database/index.js';
import { validateEnvironment } from './src/platform/config/index.js';

// The TypeORM CLI's data source (`npm run migration:run`): same options factory as the app.
validateEnvironment(process.env);
export default new DataSource(buildTypeOrmOptions({ ...databaseConfig(), migrationsRun: false }));
