import { spawnSync } from 'node:child_process';
import { freePort, ServiceProcess } from '../support/service-process.js';
import { migratedDatabase } from '../support/test-databases.js';

const READINESS_DELAY_MS = 1_500;
const DATABASE_URL = (await migratedDatabase()).url;

/** The built server as a container runs it, with its admin listener on: started after the public one, stopped with it. */
describe('The admin listener of the built server (a real process)', () => {
  const env = {
    DATABASE_URL,
    NODE_ENV: 'production',
    ALLOWED_HOSTS: '127.0.0.1',
    LOG_LEVEL: 'info',
    SHUTDOWN_READINESS_DELAY_MS: String(READINESS_DELAY_MS),
    SHUTDOWN_GRACE_MS: '3000',
  };

  it('serves the admin API on ADMIN_PORT only, and closes it on SIGTERM after the readiness delay, like the public port', async () => {
    const created = spawnSync(process.execPath, ['dist/src/cli.js', 'admin-tokens', 'create', '--name', 'ops', '--json'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    expect(created.status).toBe(0);
    const { token } = JSON.parse(created.stdout) as { token: string };
    const adminPort = await freePort();
    const replica = new ServiceProcess(await freePort(), { ...env, ADMIN_PORT: String(adminPort), ADMIN_HOST: '127.0.0.1' });
    await replica.start();
    const adminUrl = `http://127.0.0.1:${adminPort}/admin/v1/clients`;
    const get = (url: string) =>
      fetch(url, { headers: { Authorization: `Bearer ${token}` } }).then(
        (res) => res.status,
        () => 0,
      );
    try {
      expect(await get(adminUrl)).toBe(200);
      expect(await get(`${replica.url}/admin/v1/clients`)).toBe(404);
      expect(replica.log()).toContain(`Admin API on http://127.0.0.1:${adminPort}/admin/v1 (docs at /admin/docs)`);

      const stopped = replica.stop(20_000);
      await new Promise((resolve) => setTimeout(resolve, READINESS_DELAY_MS / 3));
      const during = await get(adminUrl);
      const { ms, exit } = await stopped;
      console.log(
        `SIGTERM: the admin port answered ${during} during the readiness delay; the process exited ${exit} after ${ms.toFixed(0)} ms`,
      );
      expect(during).toBe(200);
      // Nest re-raises the signal once closed; it closes only when the admin server has, too.
      expect(['0', 'SIGTERM']).toContain(exit);
      expect(ms).toBeGreaterThanOrEqual(READINESS_DELAY_MS);
      expect(ms).toBeLessThan(READINESS_DELAY_MS + 3_000);
      expect(await get(adminUrl)).toBe(0);
    } finally {
      await replica.kill();
    }
  }, 60_000);
});
