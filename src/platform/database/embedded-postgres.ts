import pg from 'pg';
import { freeLoopbackPort, PostgresCluster } from './postgres-cluster.js';

/** Beside the working directory, as `npm start` runs from the checkout. */
const DATA_DIRECTORY = 'data/postgres';
/**
 * This process's connections, told apart from other processes' when it leaves: a backend whose client
 * has just disconnected stays in pg_stat_activity for a moment.
 */
const APPLICATION_NAME = `pet-adoption-service-${process.pid}`;

/**
 * The database when DATABASE_URL is unset (outside production): a real PostgreSQL in
 * `data/postgres`, on a free loopback port. One server serves every process of the checkout: the
 * first to need it starts it, the others (the command-line tool beside the service, a service after
 * one killed with SIGKILL) find it running. Each holds a connection while it uses the server, and the
 * last to leave stops it.
 */
class EmbeddedPostgres {
  private server?: Promise<{ cluster: PostgresCluster; url: string; held: pg.Client }>;

  url(): Promise<string> {
    this.server ??= this.ensureRunning();
    return this.server.then(({ url }) => url);
  }

  /** After this process closed its pool. */
  async release(): Promise<void> {
    if (!this.server) return;
    const { cluster, held } = await this.server;
    this.server = undefined;
    try {
      const { rows } = await held.query<{ others: string }>(
        "SELECT count(*) AS others FROM pg_stat_activity WHERE backend_type = 'client backend' AND application_name <> $1",
        [APPLICATION_NAME],
      );
      if (Number(rows[0].others) > 0) return;
    } catch {
      return; // stopped already, by another process of the checkout
    } finally {
      await held.end();
    }
    cluster.stop();
  }

  private async ensureRunning() {
    const cluster = await PostgresCluster.at(DATA_DIRECTORY);
    cluster.initialise();
    const port = cluster.runningPort() ?? cluster.start(await freeLoopbackPort());
    const url = `${cluster.url(port)}?application_name=${APPLICATION_NAME}`;
    // Held for the process's life: its pool closes idle connections, and another process leaving
    // would then count no client and stop the server under it.
    const held = new pg.Client({ connectionString: url });
    held.on('error', () => undefined); // the server went away: the pool's queries say so
    await held.connect();
    return { cluster, url, held };
  }
}

export const embeddedPostgres = new EmbeddedPostgres();
