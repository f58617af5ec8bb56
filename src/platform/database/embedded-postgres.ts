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
 * one killed with SIGKILL) find it running. A process that used it stops it when it is done, unless
 * another still has a connection open.
 */
class EmbeddedPostgres {
  private server?: Promise<{ cluster: PostgresCluster; url: string }>;

  url(): Promise<string> {
    this.server ??= this.ensureRunning();
    return this.server.then(({ url }) => url);
  }

  /** After this process closed its own connections. */
  async release(): Promise<void> {
    if (!this.server) return;
    const { cluster, url } = await this.server;
    this.server = undefined;
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      const { rows } = await client.query<{ others: string }>(
        "SELECT count(*) AS others FROM pg_stat_activity WHERE backend_type = 'client backend' AND application_name <> $1",
        [APPLICATION_NAME],
      );
      if (Number(rows[0].others) > 0) return;
    } catch {
      return; // stopped already, by another process of the checkout
    } finally {
      await client.end();
    }
    cluster.stop();
  }

  private async ensureRunning() {
    const cluster = await PostgresCluster.at(DATA_DIRECTORY);
    cluster.initialise();
    const port = cluster.runningPort() ?? cluster.start(await freeLoopbackPort());
    return { cluster, url: `${cluster.url(port)}?application_name=${APPLICATION_NAME}` };
  }
}

export const embeddedPostgres = new EmbeddedPostgres();
