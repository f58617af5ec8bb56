// The embedded default as a newcomer runs it: the service without DATABASE_URL starts its own
// PostgreSQL in data/postgres under its working directory. The bench starts that server itself and
// keeps a connection open for the whole run, so it outlives each round's service process (a process
// stops the server only when no other client is connected), and stops it at the end.
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';

/** The embedded server of `workdir`, made with the build in `root`; resolves with its URL and `close`. */
export async function embeddedPostgres(root, workdir) {
  const { PostgresCluster, freeLoopbackPort } = await import(pathToFileURL(join(root, 'dist/src/platform/database/index.js')).href);
  mkdirSync(workdir, { recursive: true });
  // Under root the server runs as `postgres`, which must reach its folder (mkdtemp makes them 0700).
  for (const folder of [join(workdir, '..'), workdir]) chmodSync(folder, 0o755);
  const cluster = await PostgresCluster.at(join(workdir, 'data/postgres'));
  cluster.initialise();
  const url = cluster.url(cluster.start(await freeLoopbackPort()));
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  return {
    url,
    close: async () => {
      await holder.end();
      cluster.stop();
    },
  };
}
