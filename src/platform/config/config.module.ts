import { ConfigModule } from '@nestjs/config';
import type { ConfigNamespace } from './define-config.js';
import { validateEnvironment } from './env.validation.js';

/** The namespaces of an application's module list (`gatherParts`), validated once at boot on the environment merged with `.env`. */
export const appConfigModule = (namespaces: readonly ConfigNamespace[]) =>
  ConfigModule.forRoot({ isGlobal: true, cache: true, load: [...namespaces], validate: validateEnvironment(namespaces) });
