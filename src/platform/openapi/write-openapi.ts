// Regenerates the checked-in `openapi.json` (`npm run openapi`) through the server's factory, without
// PUBLIC_BASE_URL / STAGING_BASE_URL, so it is the same on every machine; a test fails while it is stale.
import 'reflect-metadata';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { AppConfig } from '../config/index.js';

// Configuration is read while the modules load, so the environment is fixed before importing them. The
// application opens its database (DATABASE_URL, else the embedded one) though the document needs none.
delete process.env.PUBLIC_BASE_URL;
delete process.env.STAGING_BASE_URL;

const { ConfigService } = await import('@nestjs/config');
const { createApp } = await import('../../app.factory.js');
const { buildOpenApiDocument } = await import('./openapi-document.js');

const OPENAPI_FILE = resolve(process.cwd(), 'openapi.json');

const app = await createApp();
try {
  const document = buildOpenApiDocument(app, app.get(ConfigService).getOrThrow<AppConfig>('app'));
  await writeFile(OPENAPI_FILE, `${JSON.stringify(document, null, 2)}\n`);
  process.stdout.write(`Wrote ${OPENAPI_FILE}\n`);
} finally {
  await app.close();
}
