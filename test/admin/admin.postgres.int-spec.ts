import { OPERATOR } from '../support/test-app.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { AdminTokensService } from '../../src/modules/admin/index.js';
import { emptyDatabase } from '../support/test-databases.js';
import { createAdminTestApp, type AdminTestApp } from './admin-app.js';

/**
 * The admin API on the real PostgreSQL named by DATABASE_URL, two instances A and B on one database,
 * each with its own token lookup cache: a token revoked on A is refused by B within the 5-second bound.
 */
/** A database of this suite's own (test/support/test-databases.ts). */
const DATABASE_URL = await emptyDatabase();
const REPLICA_BOUND_MS = 5_000;

describe('The admin API on PostgreSQL, two instances on one database (integration)', () => {
  let a: AdminTestApp;
  let b: AdminTestApp;

  beforeAll(async () => {
    const env = { DATABASE_URL, REDIS_URL: process.env.REDIS_URL ?? '' };
    a = await createAdminTestApp({ env });
    b = await createAdminTestApp({ env: { ...env, DATABASE_MIGRATIONS_RUN: 'false' } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('refuses on B a token revoked on A within the bound', async () => {
    const { id, token } = await a.newAdminToken('rotating operator');
    const asOperator = { Authorization: `Bearer ${token}` };
    expect((await b.admin().get('/admin/v1/clients').set(asOperator)).status).toBe(200);
    const revokedAt = Date.now();
    expect(await a.app.get(AdminTokensService).revoke(id, OPERATOR)).toBe('revoked');
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < REPLICA_BOUND_MS + 2_000) {
      status = (await b.admin().get('/admin/v1/clients').set(asOperator)).status;
      if (status === 200) await sleep(100);
    }
    const refusedAfter = Date.now() - revokedAt;
    console.log(`Admin token revoked on A: B refused it ${refusedAfter} ms later`);
    expect(status).toBe(401);
    expect(refusedAfter).toBeLessThanOrEqual(REPLICA_BOUND_MS);
  }, 20_000);

  it('manages clients and keys on A that B lists, page by page, with int64 ids as numbers', async () => {
    const auth = { Authorization: `Bearer ${(await a.newAdminToken()).token}` };
    const created = await a
      .admin()
      .post('/admin/v1/clients')
      .set(auth)
      .send({ name: 'Shelter', plan: 'enterprise', perMinute: 50, perDay: 500 });
    expect(created.status).toBe(201);
    const clientId = created.body.id as number;
    expect(typeof clientId).toBe('number');
    for (const name of ['one', 'two', 'three']) {
      expect((await a.admin().post(`/admin/v1/clients/${clientId}/keys`).set(auth).send({ name })).status).toBe(201);
    }
    const first = await b.admin().get(`/admin/v1/clients/${clientId}/keys?limit=2`).set(auth);
    const second = await b.admin().get(`/admin/v1/clients/${clientId}/keys`).query({ limit: 2, cursor: first.body.nextCursor }).set(auth);
    const keys = [...first.body.keys, ...second.body.keys] as Array<{ id: number; name: string }>;
    expect([keys.map(({ name }) => name), second.body.nextCursor]).toEqual([['one', 'two', 'three'], null]);

    const rolled = await b.admin().post(`/admin/v1/clients/${clientId}/keys/${keys[0].id}/roll`).set(auth).send({ overlapSeconds: 0 });
    expect([rolled.status, rolled.body.name, rolled.body.plan]).toEqual([201, 'one', 'enterprise']);
    expect((await a.admin().delete(`/admin/v1/clients/${clientId}/keys/${keys[1].id}`).set(auth)).status).toBe(204);
    const listed = (await b.admin().get(`/admin/v1/clients/${clientId}/keys`).set(auth)).body.keys as Array<{
      id: number;
      revokedAt: string | null;
    }>;
    expect(listed.map(({ id, revokedAt }) => [id, revokedAt !== null])).toEqual([
      [keys[0].id, false],
      [keys[1].id, true],
      [keys[2].id, false],
      [rolled.body.id, false],
    ]);
    const moved = await b.admin().put(`/admin/v1/clients/${clientId}/plan`).set(auth).send({ plan: 'pro' });
    expect([moved.status, moved.body.limits]).toEqual([200, { perMinute: 300, perDay: 10_000 }]);
  });
});
