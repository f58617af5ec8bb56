import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { freePort, ServiceProcess } from '../support/service-process.js';
import { migratedDatabase, queryDatabase } from '../support/test-databases.js';

/** The built server as a real process, as a container runs it (dist/ comes from jest's global setup). */
const MAIN = 'dist/src/main.js';
const CLI = 'dist/src/cli.js';
const DATABASE_URL = (await migratedDatabase()).url;

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

describe('graceful shutdown (built server process)', () => {
  const env = {
    ...process.env,
    DATABASE_URL,
    REDIS_URL: '',
    NODE_ENV: 'production',
    ALLOWED_HOSTS: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };

  it('answers every request of a burst of creations it has accepted, keeps every 201 it sent, and fails readiness first', async () => {
    const created = spawnSync(
      process.execPath,
      [CLI, 'keys', 'create', '--plan', 'enterprise', '--per-minute', '100000', '--per-day', '1000000', '--json'],
      {
        env,
        encoding: 'utf8',
      },
    );
    expect(created.status).toBe(0);
    const { key } = JSON.parse(created.stdout) as { key: string };

    // Long enough for every connection of the burst to be accepted on a loaded machine: a client
    // still in the listen backlog when the server stops listening is reset, as it would be by a real
    // load balancer only if it ignored readiness for this long.
    const READINESS_DELAY_MS = 2_500;
    const port = await freePort();
    const server = spawn(process.execPath, [MAIN], {
      env: {
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        SHUTDOWN_READINESS_DELAY_MS: String(READINESS_DELAY_MS),
        SHUTDOWN_GRACE_MS: '5000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exit = exited(server);
    const base = `http://127.0.0.1:${port}`;
    for (let tries = 0; ; tries++) {
      const ready = await fetch(`${base}/health/ready`).then(
        (r) => r.status,
        () => 0,
      );
      if (ready === 200) break;
      if (tries > 300) throw new Error('the server did not become ready within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const BURST = 200;
    let answered = 0;
    let signalled = false;
    const burst = Array.from({ length: BURST }, (_, i) =>
      fetch(`${base}/v1/pets`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `Burst ${i}`, categoryId: 1 }),
      }).then(async (response) => {
        answered++;
        if (!signalled && answered >= BURST / 4) {
          signalled = true;
          server.kill('SIGTERM');
        }
        return { status: response.status, body: (await response.json()) as { id?: number; name?: string } };
      }),
    );
    const results = await Promise.all(burst);

    // Readiness turns false while the server still answers. The signal is handled on the server's
    // event loop, possibly after the burst's last answers, so readiness is asked until it flips:
    // well within the readiness delay during which the server must keep serving.
    let readiness: { status: number; body: { status?: string } } = { status: 0, body: {} };
    const askedFrom = performance.now();
    while (readiness.status !== 503 && performance.now() - askedFrom < 500) {
      const response = await fetch(`${base}/health/ready`);
      readiness = { status: response.status, body: (await response.json()) as { status?: string } };
      if (readiness.status !== 503) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(readiness).toEqual({ status: 503, body: expect.objectContaining({ status: 'shutting_down' }) });

    const signalledAt = performance.now();
    const { code, signal } = await exit;
    const exitMs = performance.now() - signalledAt;
    expect(code === 0 || signal === 'SIGTERM').toBe(true);

    const rows = await queryDatabase<{ id: number; name: string }>(DATABASE_URL, 'SELECT id::int, name FROM pets');
    const stored = new Map(rows.map((row) => [row.id, row.name]));
    const createdPets = results.filter((r) => r.status === 201);
    console.log(
      `SIGTERM after ${BURST / 4} of ${BURST} concurrent creations: ${results.length} answered (${createdPets.length} × 201), ${stored.size} rows in the database, exit ${signal ?? code} ${exitMs.toFixed(0)} ms after the burst`,
    );
    expect(results).toHaveLength(BURST);
    expect(createdPets).toHaveLength(BURST);
    for (const { body } of createdPets) expect(stored.get(body.id!)).toBe(body.name);
    // The rest of the readiness delay plus closing, well inside the grace period (5 s).
    expect(exitMs).toBeLessThan(READINESS_DELAY_MS + 3_000);
  }, 90_000);

  it('leaves closing idle keep-alive connections to the balancer, and keeps them open while readiness fails, so a balancer still routing to it is answered', async () => {
    const replica = new ServiceProcess(await freePort(), {
      ...env,
      SHUTDOWN_READINESS_DELAY_MS: '3000',
      SHUTDOWN_GRACE_MS: '2000',
    });
    await replica.start();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; reusedSocket: boolean; keepAlive?: string | string[] }>((resolve, reject) => {
        const outgoing = request(`${replica.url}/health/live`, { agent }, (response) => {
          response.resume();
          const keepAlive = response.headers['keep-alive'];
          response.on('end', () => resolve({ status: response.statusCode ?? 0, reusedSocket: outgoing.reusedSocket, keepAlive }));
        });
        outgoing.on('error', reject);
        outgoing.end();
      });
    try {
      // An idle connection stays open 65 s (Node's default: 5 s), longer than a balancer keeps its
      // idle ones: the balancer closes it, never in the middle of sending a request over it.
      expect(await get()).toEqual({ status: 200, reusedSocket: false, keepAlive: 'timeout=65' });
      const stopped = replica.stop(10_000);
      // Well inside the readiness delay, after several of the old 100 ms sweeps of idle connections.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const during = await get();
      console.log(`a request 1 s after SIGTERM on the connection opened before: ${JSON.stringify(during)}`);
      expect(during).toMatchObject({ status: 503, reusedSocket: true });
      await stopped;
    } finally {
      agent.destroy();
      await replica.kill();
    }
  }, 60_000);

  it('refuses to start on bad configuration, naming every bad variable at once', () => {
    const result = spawnSync(process.execPath, [MAIN], {
      env: { ...env, PORT: 'eighty', REDIS_URL: 'http://nope', LOG_LEVEL: 'loud' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).not.toBe(0);
    const output = result.stderr + result.stdout;
    for (const name of ['PORT', 'REDIS_URL', 'LOG_LEVEL']) expect(output).toContain(name);
    expect(output).toContain('Invalid configuration');
  });
});
