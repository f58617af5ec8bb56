import { AuditService, type ChangeContext } from '../../src/modules/audit/index.js';
import { ApiKeysService } from '../../src/modules/auth/index.js';
import { ClientsService } from '../../src/modules/plans/index.js';
import { TransactionHost } from '../../src/platform/database/index.js';
import { refuseWrites } from '../support/refused-writes.js';
import { emptyDatabase } from '../support/test-databases.js';
import { createTestApp, OPERATOR, type TestApp } from '../support/test-app.js';

/**
 * Each change and its event are one transaction, so a statement that fails after the event leaves
 * neither; on a database of this suite's own (test/support/test-databases.ts).
 */
const DATABASE_URL = await emptyDatabase();
const UNREACHED = { perMinute: 1_000_000, perDay: 100_000_000 };

describe('Audit log on PostgreSQL: a change and its event commit together (integration)', () => {
  let t: TestApp;
  let txHost: TransactionHost;
  let clients: ClientsService;
  let keys: ApiKeysService;

  /** Everything a change could touch (but `last_used_at`, which requests write on their own). */
  const rows = async () => ({
    clients: await t.dataSource.query('SELECT * FROM clients ORDER BY id'),
    keys: await t.dataSource.query('SELECT id, client_id, name, scopes, expires_at, revoked_at FROM api_keys ORDER BY id'),
    events: await t.dataSource.query('SELECT * FROM audit_events ORDER BY id'),
  });
  const eventsInTransaction = async () => Number((await txHost.tx.query('SELECT count(*) AS n FROM audit_events'))[0].n);

  /** Runs `change` in a transaction whose next statement fails, once the change has written its event. */
  const failingAfter = async (change: () => Promise<unknown>) => {
    const work = txHost.withTransaction(async () => {
      const before = await eventsInTransaction();
      await change();
      expect(await eventsInTransaction()).toBe(before + 1);
      await txHost.tx.query('SELECT 1 / 0');
    });
    await expect(work).rejects.toThrow('division by zero');
  };
  const newClient = async () => {
    const client = await clients.create('Audited', 'enterprise', UNREACHED, OPERATOR);
    const { key, apiKey } = await keys.issue(client.id, { scopes: ['pets:read', 'pets:write', 'keys:manage'] }, OPERATOR);
    return { clientId: client.id, keyId: apiKey.id, key };
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { DATABASE_URL } });
    txHost = t.app.get(TransactionHost);
    clients = t.app.get(ClientsService);
    keys = t.app.get(ApiKeysService);
  });
  afterAll(() => t?.close());

  it('rolls every change back with its event when a later statement of its transaction fails', async () => {
    const { clientId, keyId } = await newClient();
    const byKey: ChangeContext = { actor: { kind: 'key', id: keyId }, requestId: 'pg-rollback' };
    const before = await rows();
    await failingAfter(() => clients.create('Never', 'pro', {}, OPERATOR));
    await failingAfter(() => clients.setPlan(clientId, 'business', {}, OPERATOR));
    await failingAfter(() => keys.issue(clientId, { name: 'never' }, OPERATOR));
    await failingAfter(() => keys.issue(clientId, { name: 'never' }, byKey, 20));
    await failingAfter(() => keys.roll(keyId, clientId, 60_000, byKey, 20));
    await failingAfter(() => keys.revokeOfClient(keyId, clientId, byKey));
    await failingAfter(() => keys.revoke(keyId, OPERATOR));
    expect(await rows()).toEqual(before);
  });

  it('rolls a self-service creation and roll back with their events when recording the Idempotency-Key fails after them', async () => {
    const { key } = await newClient();
    const bearer = { Authorization: `Bearer ${key}` };
    const victim = await t.http().post('/v1/keys').set(bearer).send({ name: 'victim' });
    const before = await rows();
    const restore = await refuseWrites(t.dataSource, 'INSERT', 'idempotency_keys');
    try {
      const created = await t.http().post('/v1/keys').set(bearer).set('Idempotency-Key', 'pg-create').send({ name: 'never' });
      const rolled = await t.http().post(`/v1/keys/${victim.body.id}/roll`).set(bearer).set('Idempotency-Key', 'pg-roll').send({});
      expect([victim.status, created.status, rolled.status]).toEqual([201, 500, 500]);
    } finally {
      await restore();
    }
    expect(await rows()).toEqual(before);
  });

  it('records one revocation when ten race to revoke a key', async () => {
    const { keyId } = await newClient();
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => keys.revoke(keyId, OPERATOR)));
    expect(outcomes.filter((outcome) => outcome === 'revoked')).toHaveLength(1);
    const { items } = await t.app.get(AuditService).list({ action: 'key.revoked', limit: 100 });
    expect(items.filter((event) => event.keyId === keyId)).toHaveLength(1);
  });

  it("chains concurrent plan changes: each event's old plan is the new plan of the one before", async () => {
    const { clientId } = await newClient();
    const plans = ['pro', 'business', 'free', 'pro', 'business', 'free', 'pro', 'business'];
    await Promise.all(plans.map((plan) => clients.setPlan(clientId, plan, {}, OPERATOR)));
    const { items } = await t.app.get(AuditService).list({ clientId, action: 'client.plan_changed', limit: 100 });
    const changes = items.reverse().map(({ details }) => details as { from: { plan: string }; to: { plan: string } });
    expect(changes).toHaveLength(plans.length);
    expect(changes[0].from.plan).toBe('enterprise');
    changes.slice(1).forEach((change, n) => expect(change.from).toEqual(changes[n].to));
    expect(changes.at(-1)!.to.plan).toBe((await clients.get(clientId)).plan);
  });
});
