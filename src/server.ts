import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { createApp } from './app.factory.js';
import type { ChangeContext } from './modules/audit/index.js';
import { AdminListener } from './modules/admin/index.js';
import { ApiKeysService } from './modules/auth/index.js';
import { ClientsService } from './modules/plans/index.js';
import type { AppConfig } from './platform/config/index.js';

async function bootstrap(): Promise<void> {
  const app = await createApp();
  const config = app.get(ConfigService).getOrThrow<AppConfig>('app');
  await app.listen(config.port, config.host);
  await app.get(AdminListener).listen();
  const base = `http://localhost:${config.port}/v1`;
  Logger.log(`Serving ${base} (docs at http://localhost:${config.port}/docs)`, 'Bootstrap');

  // Outside production, the first start on an empty database gets a client and key, so a newcomer can call the API at once.
  const clients = app.get(ClientsService);
  if (!config.production && (await clients.isEmpty())) {
    // Audited as the operator's own setup, as if made with the command-line tool.
    const byCli: ChangeContext = { actor: { kind: 'cli' } };
    const { key } = await app.get(ApiKeysService).issue((await clients.create('Development', 'free', {}, byCli)).id, {}, byCli);
    // Printed once, on stdout only: the key is never written to the log.
    process.stdout.write(
      `\nDevelopment API key (shown once, store it now):\n  ${key}\nTry it:\n  curl -H "Authorization: Bearer ${key}" ${base}/pets\n\n`,
    );
  }
}

await bootstrap();
