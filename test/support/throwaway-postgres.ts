import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresCluster } from '../../src/platform/database/index.js';

/**
 * A PostgreSQL server of the test's own, to be stopped and started without touching the machine's:
 * the embedded default's binaries and `PostgresCluster` in a temporary directory, on a loopback
 * port (no fsync: nothing here must survive a crash). `stop()` is a fast shutdown (open connections
 * are closed), `start()` brings it back with its data; `dispose()` stops it and removes the directory.
 */
export class ThrowawayPostgres {
  private readonly dir = mkdtempSync(join(tmpdir(), 'pets-postgres-'));
  private cluster?: PostgresCluster;

  constructor(readonly port: number) {}

  /** The `postgres` database as the `postgres` user. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  async init(): Promise<void> {
    // Under root the server runs as `postgres`, which must reach its directory.
    chmodSync(this.dir, 0o755);
    this.cluster = await PostgresCluster.at(join(this.dir, 'data'), { fsync: 'off', max_connections: '50' });
    this.cluster.initialise();
    this.start();
  }

  start(): void {
    this.cluster!.start(this.port);
  }

  stop(): void {
    this.cluster!.stop();
  }

  dispose(): void {
    this.cluster?.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
