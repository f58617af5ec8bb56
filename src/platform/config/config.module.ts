import { ConfigModule } from '@nestjs/config';
import { configNamespaces } from './config-registry.js';
import { validateEnvironment } from './env.validation.js';

/**
 * Configuration for the server and the command-line tool alike: every namespace the loaded
 * modules define (defineConfig), validated once, at boot. A function rather than a constant so it
 * runs after every module's file has been loaded and has defined its namespace.
 */
export const appConfigModule = () =>
  ConfigModule.forRoot({
    isGlobal: true,
    cache: true,
    load: configNamespaces(),
    validate: validateEnvironment,
  });
