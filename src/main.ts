import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { createApp } from './app.factory.js';
import type { AppConfig } from './platform/config/index.js';
import { DevelopmentKeyModule, DevelopmentKeyService } from './modules/development-key/index.js';

async function bootstrap(): Promise<void> {
  const app = await createApp([DevelopmentKeyModule]);
  const config = app.get(ConfigService).getOrThrow<AppConfig>('app');
  await app.listen(config.port, config.host);
  const base = `http://localhost:${config.port}/v1`;
  Logger.log(`Serving ${base} (docs at http://localhost:${config.port}/docs)`, 'Bootstrap');

  if (!config.production) {
    const key = await app.get(DevelopmentKeyService).createIfEmpty();
    if (key) {
      // Printed once, on stdout only: the key is never written to the log.
      process.stdout.write(
        `\nDevelopment API key (shown once, store it now):\n  ${key}\nTry it:\n  curl -H "Authorization: Bearer ${key}" ${base}/pets\n\n`,
      );
    }
  }
}

await bootstrap();
