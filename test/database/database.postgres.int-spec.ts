import { jest } from '@jest/globals';
import type { QueryRunner } from 'typeorm';
import { ApiKeysService } from '../../src/modules/auth/api-keys.service.js';
import { FakeClock } from '../support/fake-clock.js';
import { walkPages } from '../support/page-walk.js';
import { emptyDatabase } from '../support/test-databases.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { createTestApp, OPERATOR, type TestApp } from '../support/test-app.js';

/**
 * Runs against the real PostgreSQL named by DATABASE_URL (CI points it at a dedicated test
 * database). An unreachable database fails this suite; it is never skipped once selected.
 */
/** A database of this suite's own (test/support/test-databases.ts). */
const DATABASE_URL = await emptyDatabase();
const MAX_ID = 9007199254740991;

/** An instance whose database connections go through a proxy the test can cut or stall. */
async function behindProxy({ env = {}, clock }: { env?: Record<string, string>; clock?: FakeClock } = {}) {
  const target = new URL(DATABASE_URL);
  const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
  await proxy.start();
  const viaProxy = new URL(DATABASE_URL);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  const app = await createTestApp({ env: { DATABASE_URL: viaProxy.toString(), DATABASE_MIGRATIONS_RUN: 'false', ...env }, clock });
  return { proxy, app };
}

describe('PostgreSQL (integration)', () => {
  let t: TestApp;
  let clock: FakeClock;
  let auth: { Authorization: string };

  beforeAll(async () => {
    clock = new FakeClock();
    t = await createTestApp({ env: { DATABASE_URL }, clock });
    auth = { Authorization: `Bearer ${await t.newKey()}` };
  });
  afterAll(() => t?.close());
  beforeEach(() => t.dataSource.query('TRUNCATE pets RESTART IDENTITY'));
  afterEach(() => jest.restoreAllMocks());

  it('applies the migrations: tables, the (status, id) index and timestamptz columns', async () => {
    const tables = await t.dataSource.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`);
    expect(tables.map((r: { table_name: string }) => r.table_name)).toEqual(
      expect.arrayContaining(['api_keys', 'clients', 'migrations', 'pets']),
    );
    const [index] = await t.dataSource.query(`SELECT indexdef FROM pg_indexes WHERE indexname = 'IDX_pets_status_id'`);
    expect(index.indexdef).toMatch(/\(status, id\)/);
    const [column] = await t.dataSource.query(
      `SELECT data_type FROM information_schema.columns WHERE table_name = 'pets' AND column_name = 'id'`,
    );
    expect(column.data_type).toBe('bigint');
  });

  it('creates, lists and gets animals with int64 values as JSON integers', async () => {
    const created = await t.http().post('/v1/pets').set(auth).send({ name: 'Rex', categoryId: MAX_ID });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: 1, name: 'Rex', categoryId: MAX_ID, status: 'available' });
    expect(created.text).toContain(`"categoryId":${MAX_ID}`);
    const fetched = await t.http().get('/v1/pets/1').set(auth);
    expect(fetched.body).toEqual(created.body);
    const listed = await t.http().get('/v1/pets').set(auth);
    expect(listed.body).toEqual([created.body]);
    expect((await t.http().get('/v1/pets/2').set(auth)).status).toBe(404);
  });

  it('pages over more than one page, with and without a status filter', async () => {
    const statuses = Array.from({ length: 11 }, (_, i) => ['available', 'sold', 'pending'][i % 3]);
    for (const [i, status] of statuses.entries())
      await t
        .http()
        .post('/v1/pets')
        .set(auth)
        .send({ name: `P${i}`, categoryId: 1, status });
    expect(await walkPages([t], '/v1/pets?limit=4', auth)).toEqual(statuses.map((_, i) => i + 1));
    expect(await walkPages([t], '/v1/pets?limit=2&status=sold', auth)).toEqual(statuses.flatMap((s, i) => (s === 'sold' ? [i + 1] : [])));
  });

  it('reads any page, however deep, with one index-seeking statement that examines about one page of rows', async () => {
    await t.dataSource.query(
      `INSERT INTO pets (name, category_id, status) SELECT 'Pet ' || g, 1, (ARRAY['available','pending','sold'])[1 + g % 3] FROM generate_series(1, 60000) g`,
    );
    await t.dataSource.query('ANALYZE pets');
    // Warm the key cache, so what is counted is the steady state of a list request.
    await t.http().get('/v1/pets?limit=1').set(auth);
    const statements: Array<{ sql: string; parameters?: unknown[] }> = [];
    const create = t.dataSource.createQueryRunner.bind(t.dataSource);
    jest.spyOn(t.dataSource, 'createQueryRunner').mockImplementation((...args) => {
      const runner: QueryRunner = create(...args);
      const query = runner.query.bind(runner);
      runner.query = ((sql: string, parameters?: unknown[], ...rest: unknown[]) => {
        // Only the requests' statements: the webhook delivery worker polls the outbox meanwhile.
        if (!sql.includes('webhook_')) statements.push({ sql, parameters });
        return (query as (...a: unknown[]) => Promise<unknown>)(sql, parameters, ...rest);
      }) as QueryRunner['query'];
      return runner;
    });
    const first = await t.http().get('/v1/pets?status=sold&limit=20').set(auth);
    expect(statements).toHaveLength(1);
    const deepCursor = (await import('../../src/common/pagination/cursor.js')).encodeCursor({ after: 59_000, status: 'sold' });
    const deep = await t.http().get(`/v1/pets?status=sold&limit=20&cursor=${deepCursor}`).set(auth);
    expect([first.status, deep.status]).toEqual([200, 200]);
    expect(deep.body[0].id).toBeGreaterThan(59_000);
    expect(statements).toHaveLength(2);
    jest.restoreAllMocks();
    for (const { sql, parameters } of statements) {
      const [
        {
          'QUERY PLAN': [plan],
        },
      ] = await t.dataSource.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, parameters);
      const scans: Array<Record<string, unknown>> = [];
      const visit = (node: Record<string, unknown>) => {
        if (String(node['Node Type']).includes('Scan')) scans.push(node);
        for (const child of (node.Plans as Array<Record<string, unknown>>) ?? []) visit(child);
      };
      visit(plan.Plan);
      // One index scan (the planner picks the primary key or (status, id)), seeking past the cursor
      // when there is one: no sequential scan, no sort, and the rows examined stay near the page size at any depth.
      expect(scans).toEqual([expect.objectContaining({ 'Node Type': expect.stringMatching(/^Index (Only )?Scan$/) })]);
      if (sql !== statements[0].sql) expect(scans[0]['Index Cond']).toEqual(expect.stringContaining('id >'));
      const examined = Number(scans[0]['Actual Rows']) + Number(scans[0]['Rows Removed by Filter'] ?? 0);
      expect(examined).toBeLessThanOrEqual(100);
    }
  });

  it('stores only key hashes, and refuses a revoked key within 5 seconds', async () => {
    const key = await t.newKey('pro');
    const rows = await t.dataSource.query('SELECT key_hash, prefix FROM api_keys');
    expect(JSON.stringify(rows)).not.toContain(key);
    expect((await t.http().get('/v1/pets').set('Authorization', `Bearer ${key}`)).status).toBe(200);
    const keys = t.app.get(ApiKeysService);
    const [issued] = (await keys.list()).slice(-1);
    await keys.revoke(issued.id, OPERATOR);
    clock.advance(4_001);
    const res = await t.http().get('/v1/pets').set('Authorization', `Bearer ${key}`);
    expect(res.body.code).toBe('invalid_api_key');
  });

  it('answers 503 service_unavailable quickly while the database is unreachable, and recovers', async () => {
    const { proxy, app: cut } = await behindProxy();
    try {
      const key = { Authorization: `Bearer ${await cut.newKey()}` };
      expect((await cut.http().get('/v1/pets').set(key)).status).toBe(200);
      await proxy.cut();
      const started = Date.now();
      const res = await cut.http().post('/v1/pets').set(key).send({ name: 'Lost', categoryId: 1 });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ code: 'service_unavailable', message: expect.any(String), status: 503 });
      expect(Date.now() - started).toBeLessThan(6_000);
      const down = await cut.http().get('/health/ready');
      expect(down.status).toBe(503);
      expect(down.body.details.database.status).toBe('down');
      await proxy.start(proxy.port);
      expect((await cut.http().get('/v1/pets').set(key)).status).toBe(200);
      expect((await cut.http().get('/health/ready')).status).toBe(200);
    } finally {
      await cut.close();
      await proxy.cut();
    }
  });

  it('answers 503 within the query timeout while the database hangs, and recovers by itself', async () => {
    const { proxy, app: hung } = await behindProxy({ env: { DATABASE_QUERY_TIMEOUT_MS: '1000' } });
    try {
      const key = { Authorization: `Bearer ${await hung.newKey()}` };
      expect((await hung.http().get('/v1/pets').set(key)).status).toBe(200);
      proxy.stall();
      const started = Date.now();
      const res = await hung.http().get('/v1/pets').set(key);
      const waited = Date.now() - started;
      console.log(`hung database (query timeout 1000 ms): ${res.status} ${res.body.code} after ${waited} ms`);
      expect(res.body).toEqual({ code: 'service_unavailable', message: expect.any(String), status: 503 });
      expect(waited).toBeLessThan(3_000);
      proxy.resume();
      let status = 0;
      for (let tries = 0; tries < 20 && status !== 200; tries++) {
        status = (await hung.http().get('/v1/pets').set(key)).status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(status).toBe(200);
    } finally {
      await hung.close();
      await proxy.cut();
    }
  });

  it('never saves a creation it answered 503 for: past the query timeout, its connection is not reused inside its transaction', async () => {
    const slow = await createTestApp({ env: { DATABASE_URL, DATABASE_QUERY_TIMEOUT_MS: '300' } });
    const locker = slow.dataSource.createQueryRunner();
    try {
      const key = { Authorization: `Bearer ${await slow.newKey()}` };
      const first = { ...key, 'Idempotency-Key': 'held-by-a-lock' };
      await locker.startTransaction();
      await locker.query('LOCK TABLE pets IN EXCLUSIVE MODE');
      // The INSERT waits for the lock past the timeout, and so does the ROLLBACK queued behind it.
      const refused = await slow.http().post('/v1/pets').set(first).send({ name: 'Refused', categoryId: 1 });
      expect(refused.body).toEqual({ code: 'service_unavailable', message: expect.any(String), status: 503 });
      await locker.commitTransaction();
      // The pool hands out its most recently released connection first: the refused one, if it were kept.
      for (const name of ['Next', 'After'])
        expect((await slow.http().post('/v1/pets').set(key).send({ name, categoryId: 1 })).status).toBe(201);
      const count = async () => Number((await slow.dataSource.query(`SELECT count(*) FROM pets WHERE name = 'Refused'`))[0].count);
      expect(await count()).toBe(0);
      expect((await slow.http().post('/v1/pets').set(first).send({ name: 'Refused', categoryId: 1 })).status).toBe(201);
      expect(await count()).toBe(1);
    } finally {
      await locker.release();
      await slow.close();
    }
  });

  it('never answers 429 with the anonymous limits while the database is out: a key verified lately keeps its quota', async () => {
    const outageClock = new FakeClock(new Date('2027-03-01T12:00:00Z'));
    const { proxy, app: out } = await behindProxy({ clock: outageClock, env: { LOG_LEVEL: 'fatal' } });
    try {
      const verified = { Authorization: `Bearer ${await out.newKey('pro')}` };
      const unfamiliar = { Authorization: `Bearer ${await out.newKey('pro')}` };
      expect((await out.http().get('/v1/pets').set(verified)).status).toBe(200);
      await proxy.cut();
      // Past the key cache (4 s) and the plan cache (5 s): every answer now needs the database.
      outageClock.advance(6_000);
      const answers: Array<{ status: number; limit?: string }> = [];
      for (let i = 0; i < 80; i++) {
        const res = await out.http().get('/v1/pets').set(verified);
        answers.push({ status: res.status, limit: res.headers['x-ratelimit-limit'] });
      }
      const tally = answers.reduce<Record<string, number>>((acc, { status, limit }) => {
        acc[`${status} limit=${limit}`] = (acc[`${status} limit=${limit}`] ?? 0) + 1;
        return acc;
      }, {});
      console.log(`database cut, key verified 6 s earlier, 80 requests: ${JSON.stringify(tally)}`);
      // The pro client keeps its 300 a minute and is counted as itself; listing needs the database: 503.
      expect(answers).toEqual(Array(80).fill({ status: 503, limit: '300' }));
      const stranger = await out.http().get('/v1/pets').set(unfamiliar);
      expect([stranger.status, stranger.body.code, stranger.headers['x-ratelimit-limit']]).toEqual([503, 'service_unavailable', undefined]);
      // Five minutes after the last verification the key is no longer vouched for: 503, still not 429.
      outageClock.advance(5 * 60_000);
      const expired = await out.http().get('/v1/pets').set(verified);
      expect([expired.status, expired.body.code, expired.headers['x-ratelimit-limit']]).toEqual([503, 'service_unavailable', undefined]);
      await proxy.start(proxy.port);
      expect((await out.http().get('/v1/pets').set(verified)).status).toBe(200);
    } finally {
      await out.close();
      await proxy.cut();
    }
  });
});
