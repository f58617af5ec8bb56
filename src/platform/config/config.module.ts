import { ConfigModule } from '@nestjs/config';
import { configNamespaces } from './config-registry.js';
import { validateEnvironment } from './env.validation.js';

/**
 * Every namespace the loaded modules define (defineConfig), validated once at boot on the
 * environment merged with `.env` (the server passes its stricter check). A function, so it runs
 * after every module's file has been loaded and has defined its namespace.
 */
export const appConfigModule = (validate: (env: Record<string, unknown>) => Record<string, unknown> = validateEnvironment) =>
  ConfigModule.forRoot({ isGlobal: true, cache: true, load: configNamespaces(), validate });
