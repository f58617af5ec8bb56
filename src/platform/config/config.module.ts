import { ConfigModule } from '@nestjs/config';
import { configNamespaces } from './config-registry.js';
import { validateEnvironment } from './env.validation.js';

/** Every namespace the loaded modules define, validated at boot; a function, so it runs once they have all loaded. */
export const appConfigModule = () =>
  ConfigModule.forRoot({
    isGlobal: true,
    cache: true,
    load: configNamespaces(),
    validate: validateEnvironment,
  });
