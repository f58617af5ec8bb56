import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { PostgresCluster } from '../../src/platform/database/index.js';
import { eventually } from '../support/eventually.js';
import { freePort, ServiceProcess } from '../support/service-process.js';
import { queryDatabase } from '../support/test-databases.js';

const CLI = resolve('dist/src/cli.js');
/** Only PATH: no DATABASE_URL, as in a fresh clone. */
const BARE = { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', SHUTDOWN_READINESS_DELAY_MS: '0' };

/**
 * The embedded default as a newcomer meets it: the built service and command-line tool without
 * DATABASE_URL, in a working folder of their own, whose data/postgres holds the PostgreSQL they start.
 */
describe('the embedded PostgreSQL default (built service and tool, no DATABASE_URL)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pets-embedded-'));
  const pidFile = join(dir, 'data/postgres/postmaster.pid');
  let port: number;
  let service: ServiceProcess;

  const cli = async (...args: string[]) =>
    (await promisify(execFile)(process.execPath, [CLI, ...args], { cwd: dir, env: BARE, encoding: 'utf8' })).stdout;
  const clients = async () => (JSON.parse(await cli('clients', 'list', '--json')) as { clients: Array<{ name: string }> }).clients;
  const listPets = (key: string) => fetch(`${service.url}/v1/pets`, { headers: { Authorization: `Bearer ${key}` } });

  beforeAll(async () => {
    // Under root the server runs as `postgres`, which must reach the folder.
    chmodSync(dir, 0o755);
    port = await freePort();
    // Without the webhook worker, whose polling would keep a pooled connection busy: the pool can go idle.
    service = new ServiceProcess(port, { ...BARE, PORT: String(port), WEBHOOK_DELIVERY: 'false' }, dir);
  });
  afterAll(async () => {
    await service.kill();
    (await PostgresCluster.at(join(dir, 'data/postgres'))).stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts its own server, migrates it, and serves with the development key it prints', async () => {
    await service.start();
    // Printed right after the server listens, so possibly after it answers readiness.
    let key: string | undefined;
    for (
      const started = performance.now();
      !key && performance.now() - started < 30_000;
      await new Promise((done) => setTimeout(done, 50))
    ) {
      key = /Development API key[^\n]*\n\s*(pets_\S+)/.exec(service.log())?.[1];
    }
    expect(key).toBeDefined();
    expect((await listPets(key!)).status).toBe(200);
    expect(existsSync(pidFile)).toBe(true);
    // Past its own bounds (30 s to be ready, 30 s for the key), not jest's 30 s: a cold initdb on a busy machine took longer.
  }, 70_000);

  it('shares that server with the command-line tool while the service runs, also once its pool is idle, and leaves it running', async () => {
    // The pool closes idle connections after 10 s: what keeps the server then is the one the service holds.
    const port = readFileSync(pidFile, 'utf8').split('\n')[3];
    const held = `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'pet-adoption-service-${service.pid}'`;
    const connections = () => queryDatabase<{ n: number }>(`postgres://postgres@127.0.0.1:${port}/postgres`, held);
    expect(await eventually(connections, ([row]) => row.n === 1, 30_000)).toEqual([{ n: 1 }]);
    expect(await clients()).toEqual([expect.objectContaining({ name: 'Development' })]);
    expect(existsSync(pidFile)).toBe(true);
    expect((await fetch(`${service.url}/health/ready`)).status).toBe(200);
  });

  it('starts again after a SIGKILL, on the same data, without a second development key', async () => {
    await service.kill();
    await service.start();
    expect(service.log()).not.toMatch(/Development API key/);
    expect(await clients()).toHaveLength(1);
  });

  it('stops the server with the service, and the tool then starts and stops one itself', async () => {
    await service.stop(15_000);
    expect(existsSync(pidFile)).toBe(false);
    expect(await clients()).toHaveLength(1);
    expect(existsSync(pidFile)).toBe(false);
  });

  it('refuses to start in production, naming DATABASE_URL', async () => {
    const production = new ServiceProcess(await freePort(), { ...BARE, NODE_ENV: 'production', ALLOWED_HOSTS: '127.0.0.1' }, dir);
    await expect(production.start()).rejects.toThrow(/DATABASE_URL must be set in production/);
  });
});
