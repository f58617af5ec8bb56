import { DataSource } from 'typeorm';
import { databaseConfig } from './src/config/database.config.js';
import { validateEnvironment } from './src/config/env.validation.js';
import { buildTypeOrmOptions } from './src/database/typeorm-options.js';

// The TypeORM CLI's data source (`npm run migration:run`): same options factory as the app.
validateEnvironment(process.env);
export default new DataSource(buildTypeOrmOptions({ ...databaseConfig(), migrationsRun: false }));
