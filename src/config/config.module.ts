import { ConfigModule } from '@nestjs/config';
import { appConfig } from './app.config.js';
import { authConfig } from './auth.config.js';
import { databaseConfig } from './database.config.js';
import { validateEnvironment } from './env.validation.js';
import { petsConfig } from './pets.config.js';
import { rateLimitConfig } from './rate-limit.config.js';
import { redisConfig } from './redis.config.js';

/** Configuration for the server and the command-line tool alike: validated once, at boot. */
export const AppConfigModule = ConfigModule.forRoot({
  isGlobal: true,
  cache: true,
  load: [appConfig, databaseConfig, authConfig, petsConfig, redisConfig, rateLimitConfig],
  validate: validateEnvironment,
});
