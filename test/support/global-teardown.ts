// Drops the run's databases (test/support/global-setup.js), or stops its embedded server and removes it.
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { adminQuery } from './global-setup.js';

export default async function globalTeardown() {
  const { TEST_DATABASE_SERVER: server, TEST_DATABASE_PREFIX: prefix, TEST_DATABASE_IDLE: idle, TEST_DATABASE_DIRECTORY: directory } =
    process.env;
  if (!server) return;
  delete process.env.TEST_DATABASE_SERVER;
  rmSync(idle, { recursive: true, force: true });
  if (directory) {
    const { PostgresCluster } = await import(pathToFileURL(resolve('dist/src/platform/database/index.js')).href);
    (await PostgresCluster.at(join(directory, 'data'))).stop();
    rmSync(directory, { recursive: true, force: true });
    return;
  }
  const databases = await adminQuery(server, `SELECT datname FROM pg_database WHERE datname LIKE '${prefix}\\_%'`);
  await Promise.all(databases.map(({ datname }) => adminQuery(server, `DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`)));
}
