import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const HOST = '127.0.0.1';
/** Debian's PostgreSQL 15 server binaries (the package `postgresql-15`). */
const BIN = '/usr/lib/postgresql/15/bin';
const COMMAND_TIMEOUT_MS = 30_000;
/** PostgreSQL refuses to run as root; started by root (as in CI) it runs as this user. */
const UNPRIVILEGED_USER = 'postgres';

/**
 * A PostgreSQL server of the test's own, to be stopped and started without touching the machine's:
 * `initdb` into a temporary directory, `pg_ctl` on a loopback port (trust authentication for the
 * user `postgres`, no fsync: nothing here must survive a crash). `stop()` is a fast shutdown (open
 * connections are closed), `start()` brings it back with its data; `dispose()` stops it and
 * removes the directory. Under root every command runs as `postgres` (runuser).
 */
export class ThrowawayPostgres {
  private readonly dir = mkdtempSync(join(tmpdir(), 'pets-postgres-'));
  private readonly data = join(this.dir, 'data');
  private readonly asRoot = process.getuid?.() === 0;

  constructor(readonly port: number) {}

  /** The `postgres` database as the `postgres` user. */
  get url(): string {
    return `postgres://postgres@${HOST}:${this.port}/postgres`;
  }

  init(): void {
    if (!existsSync(join(BIN, 'initdb'))) {
      throw new Error(`${BIN}/initdb is missing: apt-get install -y --no-install-recommends postgresql-15`);
    }
    if (this.asRoot) {
      const id = (flag: string) => Number(spawnSync('id', [flag, UNPRIVILEGED_USER], { encoding: 'utf8' }).stdout.trim());
      chownSync(this.dir, id('-u'), id('-g'));
    }
    this.run('initdb', ['-D', this.data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
    this.start();
  }

  start(): void {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=${HOST} -c fsync=off -c max_connections=50`;
    this.run('pg_ctl', ['-D', this.data, '-o', options, '-l', join(this.dir, 'server.log'), '-w', '-t', '20', 'start']);
  }

  stop(): void {
    this.run('pg_ctl', ['-D', this.data, '-m', 'fast', '-w', '-t', '20', 'stop']);
  }

  dispose(): void {
    if (existsSync(join(this.data, 'postmaster.pid'))) this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private run(binary: string, args: string[]): void {
    const [command, commandArgs] = this.asRoot
      ? ['runuser', ['-u', UNPRIVILEGED_USER, '--', join(BIN, binary), ...args]]
      : [join(BIN, binary), args];
    const result = spawnSync(command, commandArgs, { encoding: 'utf8', timeout: COMMAND_TIMEOUT_MS });
    if (result.status !== 0) {
      const log = existsSync(join(this.dir, 'server.log')) ? readFileSync(join(this.dir, 'server.log'), 'utf8').slice(-4000) : '';
      throw new Error(
        `${binary} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stdout}${result.stderr}${log}`,
      );
    }
  }
}
