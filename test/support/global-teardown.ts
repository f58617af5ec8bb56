// Drops the run's databases (test/support/global-setup.ts), or stops its embedded server and removes it.
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';

export default async function globalTeardown(): Promise<void> {
  const { TEST_DATABASE_SERVER: server, TEST_DATABASE_PREFIX: prefix, TEST_DATABASE_IDLE: idle = '' } = process.env;
  const directory = process.env.TEST_DATABASE_DIRECTORY;
  if (!server) return;
  delete process.env.TEST_DATABASE_SERVER;
  rmSync(idle, { recursive: true, force: true });
  if (directory) {
    // The built copy, as in the setup.
    const { PostgresCluster } = (await import(
      pathToFileURL(resolve('dist/src/platform/database/index.js')).href
    )) as typeof import('../../src/platform/database/index.js');
    (await PostgresCluster.at(join(directory, 'data'))).stop();
    rmSync(directory, { recursive: true, force: true });
    return;
  }
  // Together: each DROP waits for a checkpoint, which concurrent ones share.
  const pool = new pg.Pool({ connectionString: server, max: 8 });
  try {
    const { rows } = await pool.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [
      `${prefix}_`,
    ]);
    await Promise.all(rows.map(({ datname }) => pool.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`)));
  } finally {
    await pool.end();
  }
}
