import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { Redis } from 'ioredis';
import { createTestApp, type TestApp } from './test-app.js';
import { migratedDatabase } from './test-databases.js';

/**
 * Application instances that share the real Redis named by REDIS_URL (CI sets it) and one database,
 * as replicas share their stores; each suite gets its own Redis key prefix. Registers the hooks: an
 * unreachable Redis fails the suite (never skipped once selected), instances close after each test,
 * and the suite's keys are removed at the end.
 */
export function redisReplicas() {
  /** The database is the suite's own from `beforeAll` on. */
  const env = { DATABASE_URL: '', REDIS_URL: process.env.REDIS_URL!, REDIS_KEY_PREFIX: `test-${randomUUID()}:` };
  const apps: TestApp[] = [];
  let admin: Redis | undefined;

  beforeAll(async () => {
    env.DATABASE_URL = (await migratedDatabase()).url;
    admin = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 1 });
    expect(await admin.ping()).toBe('PONG');
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });
  afterAll(async () => {
    if (admin) {
      const keys = await admin.keys(`${env.REDIS_KEY_PREFIX}*`);
      if (keys.length > 0) await admin.del(...keys);
      await admin.quit();
    }
  });

  return {
    env,
    /** A connection of the test's own, for looking at what the instances wrote. */
    get admin(): Redis {
      if (!admin) throw new Error('redisReplicas: admin is ready from beforeAll on');
      return admin;
    },
    /** Starts one more instance on the shared stores; it is closed after the test. */
    async start(overrides: Record<string, string> = {}): Promise<TestApp> {
      const app = await createTestApp({ env: { ...env, ...overrides } });
      apps.push(app);
      return app;
    },
  };
}
