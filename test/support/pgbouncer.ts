import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;
/** PgBouncer refuses to run as root; started by root (as in CI) it switches to this user. */
const UNPRIVILEGED_USER = 'postgres';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function hasBinary(): boolean {
  return spawnSync('pgbouncer', ['--version'], { stdio: 'ignore' }).error === undefined;
}

function idsOf(user: string): { uid: number; gid: number } {
  const [uid, gid] = ['-u', '-g'].map((flag) => Number(spawnSync('id', [flag, user], { encoding: 'utf8' }).stdout.trim() || NaN));
  if (Number.isNaN(uid) || Number.isNaN(gid)) throw new Error(`PgBouncer fixture: running as root needs a user ${user} to switch to`);
  return { uid, gid };
}

export interface PgBouncerOptions {
  /** Loopback port to listen on (from the caller's range, so concurrent suites do not collide). */
  port: number;
  /** The database server to pool, as a `postgres://user@host:port/db` URL; its user is the only one admitted. */
  target: string;
  /** Server connections per database and user: keep it below the clients' concurrency so transactions share them. */
  poolSize: number;
  /**
   * Seconds PgBouncer waits after a failed login to the server before it tries again (its
   * `server_login_retry`, 15 by default): how long after the server's return clients still fail.
   */
  serverLoginRetrySeconds?: number;
}

/**
 * A real PgBouncer (the Debian package `pgbouncer`) on loopback in `pool_mode = transaction` in
 * front of the PostgreSQL server of `target`, trusting `target`'s user, with its configuration,
 * pid file and log in a temporary directory. `start()` waits until a query goes through it;
 * `stop()` ends it (SIGTERM, then SIGKILL) so clients see it gone, and `start()` brings it back on
 * the same port; `dispose()` also removes the directory. The user is the admin console's too
 * (`show`). A missing binary fails `start()` with what to install.
 */
export class PgBouncer {
  private readonly dir = mkdtempSync(join(tmpdir(), 'pets-pgbouncer-'));
  private process?: ChildProcess;
  private readonly target: URL;

  constructor(private readonly options: PgBouncerOptions) {
    this.target = new URL(options.target);
    this.writeConfig();
  }

  /** `target` with PgBouncer in the way: same user and database. */
  get url(): string {
    const url = new URL(this.target);
    url.host = `${HOST}:${this.options.port}`;
    return url.toString();
  }

  async start(): Promise<void> {
    if (this.process) throw new Error('PgBouncer fixture: already running');
    if (!hasBinary())
      throw new Error(
        'pgbouncer is not installed: install the Debian package (apt-get install -y --no-install-recommends pgbouncer); .ci/run does',
      );
    rmSync(join(this.dir, 'pgbouncer.pid'), { force: true });
    const started = spawn('pgbouncer', [join(this.dir, 'pgbouncer.ini')], { stdio: 'ignore' });
    this.process = started;
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (!(await this.answers())) {
      if (started.exitCode !== null || started.signalCode !== null || Date.now() > deadline) {
        await this.stop();
        throw new Error(`PgBouncer fixture: it did not accept connections on ${HOST}:${this.options.port}; its log:\n${this.log()}`);
      }
      await sleep(100);
    }
  }

  /** Ends PgBouncer: its clients' connections close, new ones are refused. */
  async stop(): Promise<void> {
    const running = this.process;
    this.process = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGTERM');
    const timer = setTimeout(() => running.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Rows of an admin console command: `show('SERVERS')` lists the server connections. */
  async show(what: 'CLIENTS' | 'SERVERS' | 'POOLS' | 'STATS'): Promise<Array<Record<string, unknown>>> {
    const admin = this.adminClient();
    await admin.connect();
    try {
      return (await admin.query(`SHOW ${what}`)).rows;
    } finally {
      await admin.end();
    }
  }

  private async answers(): Promise<boolean> {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 1_000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  private adminClient(): pg.Client {
    const url = new URL(this.url);
    url.pathname = '/pgbouncer';
    return new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 2_000 });
  }

  private log(): string {
    try {
      return readFileSync(join(this.dir, 'pgbouncer.log'), 'utf8').split('\n').slice(-20).join('\n');
    } catch {
      return '(no log written)';
    }
  }

  private writeConfig(): void {
    const user = decodeURIComponent(this.target.username) || 'postgres';
    const runAs = process.getuid?.() === 0 ? UNPRIVILEGED_USER : undefined;
    const files = {
      'users.txt': `"${user}" ""\n`,
      'pgbouncer.ini': [
        '[databases]',
        `* = host=${this.target.hostname} port=${this.target.port || 5432}`,
        '[pgbouncer]',
        `listen_addr = ${HOST}`,
        `listen_port = ${this.options.port}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${join(this.dir, 'users.txt')}`,
        `admin_users = ${user}`,
        'pool_mode = transaction',
        `default_pool_size = ${this.options.poolSize}`,
        'max_client_conn = 200',
        ...(this.options.serverLoginRetrySeconds === undefined ? [] : [`server_login_retry = ${this.options.serverLoginRetrySeconds}`]),
        `logfile = ${join(this.dir, 'pgbouncer.log')}`,
        `pidfile = ${join(this.dir, 'pgbouncer.pid')}`,
        ...(runAs ? [`user = ${runAs}`] : []),
        '',
      ].join('\n'),
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(this.dir, name), text);
    if (runAs) {
      const { uid, gid } = idsOf(runAs);
      for (const path of [this.dir, ...Object.keys(files).map((name) => join(this.dir, name))]) chownSync(path, uid, gid);
    }
  }
}
