// A working folder for the built service on its embedded default (no DATABASE_URL), whose PostgreSQL
// lives in data/postgres there: for the runners that start `dist/` as a user would (contract, client,
// the deployment check's live stack).
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A new folder; under root the server runs as `postgres`, which must reach it (mkdtemp makes it 0700). */
export async function embeddedWorkdir(prefix) {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await chmod(dir, 0o755);
  return dir;
}

const built = () => import(new URL('../../dist/src/platform/database/index.js', import.meta.url).href);

/** Starts the folder's PostgreSQL as the embedded default would (for a process given DATABASE_URL); resolves with its URL. */
export async function startEmbeddedPostgres(dir) {
  const { PostgresCluster, freeLoopbackPort } = await built();
  const cluster = await PostgresCluster.at(join(dir, 'data/postgres'));
  cluster.initialise();
  return cluster.url(cluster.start(await freeLoopbackPort()));
}

/** Stops the folder's server if a process killed outright (or a caller) left it running, then removes the folder. */
export async function removeEmbeddedWorkdir(dir) {
  const { PostgresCluster } = await built();
  (await PostgresCluster.at(join(dir, 'data/postgres'))).stop();
  await rm(dir, { recursive: true, force: true });
}
