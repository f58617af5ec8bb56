import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { createApp } from './app.factory.js';
import type { ChangeContext } from './modules/audit/index.js';
import { createAdminApp, type AdminConfig } from './modules/admin/index.js';
import { ApiKeysService } from './modules/auth/index.js';
import { ClientsService } from './modules/plans/index.js';
import type { AppConfig } from './platform/config/index.js';

const app = await createApp();
const config = app.get(ConfigService).getOrThrow<AppConfig>('app');
await app.listen(config.port, config.host);
// With ADMIN_PORT, the admin API listens on a port of its own: an application of its own, on this one's services.
const admin = app.get(ConfigService).getOrThrow<AdminConfig>('admin');
if (admin.port !== undefined) {
  const adminApp = await createAdminApp(app);
  await adminApp.listen(admin.port, admin.host);
  const { port } = adminApp.getHttpServer().address() as AddressInfo;
  Logger.log(`Admin API on http://${admin.host}:${port}/admin/v1 (docs at /admin/docs)`, 'Bootstrap');
}
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
