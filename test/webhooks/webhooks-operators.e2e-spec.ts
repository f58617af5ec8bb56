import { ApiKeysService } from '../../src/modules/auth/index.js';
import { ClientsService } from '../../src/modules/plans/index.js';
import { createAdminTestApp, type AdminTestApp } from '../admin/admin-app.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { eventually } from '../support/eventually.js';
import { OPERATOR } from '../support/test-app.js';
import { migratedDatabase } from '../support/test-databases.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const ENV = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_POLL_INTERVAL_MS: '50' };

interface OperatorEndpoint {
  id: number;
  clientId: number;
  host: string;
  enabled: boolean;
  disabledReason: string | null;
}

/** What operators see of webhooks, over the admin API and with the command-line tool (decisions.md, "Events and webhooks"). */
describe('webhooks for operators: the admin API and the command-line tool (e2e)', () => {
  let database: Awaited<ReturnType<typeof migratedDatabase>>;
  let t: AdminTestApp;
  let receiver: WebhookReceiver;
  let clientId: number;
  let key: string;
  let auth: { Authorization: string };
  let adminTokenId: number;
  /** The endpoint's secret and its URL's token: what no operator's answer may show. */
  const secrets: string[] = [];

  const cli = async (...args: string[]) => {
    const result = await runCliInProcess([...args, '--json'], database.url);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    return JSON.parse(result.stdout) as Record<string, unknown>;
  };
  const createEndpoint = async () => {
    const url = `${receiver.url}/token-${secrets.length}-do-not-show`;
    const created = await t
      .http()
      .post('/v1/webhook-endpoints')
      .set({ Authorization: `Bearer ${key}` })
      .send({ url, eventTypes: ['key.created'] })
      .expect(201);
    receiver.secrets.push(created.body.secret);
    secrets.push(created.body.secret, new URL(url).pathname);
    return created.body as { id: number };
  };
  const expectNoSecret = (shown: unknown) => {
    for (const secret of secrets) expect(JSON.stringify(shown)).not.toContain(secret);
  };

  beforeAll(async () => {
    database = await migratedDatabase();
    receiver = await new WebhookReceiver().start();
    t = await createAdminTestApp({ env: { ...ENV, DATABASE_URL: database.url } });
    clientId = (await t.app.get(ClientsService).create('Hooked', 'pro', undefined, OPERATOR)).id;
    key = (await t.app.get(ApiKeysService).issue(clientId, { scopes: ['webhooks:manage'] }, OPERATOR)).key;
    const adminToken = await t.newAdminToken();
    adminTokenId = adminToken.id;
    auth = { Authorization: `Bearer ${adminToken.token}` };
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
    database.release();
  });

  it("lists a client's endpoints by host, the same both ways, and never a secret or a URL's path", async () => {
    const { id } = await createEndpoint();
    const listed = await t.admin().get(`/admin/v1/clients/${clientId}/webhook-endpoints`).set(auth).expect(200);
    expect(listed.body).toEqual({
      webhookEndpoints: [
        {
          id,
          clientId,
          host: new URL(receiver.url).host,
          eventTypes: ['key.created'],
          description: '',
          enabled: true,
          createdAt: expect.any(String),
          disabledReason: null,
        },
      ],
    });
    expect(await cli('webhooks', 'list', '--client', String(clientId))).toEqual(listed.body);
    const table = await runCliInProcess(['webhooks', 'list', '--client', String(clientId)], database.url);
    expect(table.stdout).toMatch(
      new RegExp(`^ID\\s+HOST\\s+EVENTS\\s+ENABLED.*\\n${id}\\s+127\\.0\\.0\\.1:\\d+\\s+key\\.created\\s+yes\\s`),
    );
    expectNoSecret([listed.body, table.stdout]);
  });

  it('answers an unknown client or endpoint as not found, exit code 1 from the tool', async () => {
    const unknownClient = await t.admin().get('/admin/v1/clients/999999/webhook-endpoints').set(auth).expect(404);
    expect(unknownClient.body).toMatchObject({ code: 'not_found' });
    for (const request of [
      t.admin().get('/admin/v1/webhook-endpoints/999999/deliveries'),
      t.admin().post('/admin/v1/webhook-endpoints/999999/disable'),
    ]) {
      expect((await request.set(auth).expect(404)).body).toEqual({
        code: 'not_found',
        status: 404,
        message: 'No webhook endpoint with id 999999.',
      });
    }
    expect(await runCliInProcess(['webhooks', 'disable', '999999'], database.url)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: No webhook endpoint with id 999999.\n',
    });
    expect((await runCliInProcess(['webhooks', 'list', '--client', '999999'], database.url)).code).toBe(1);
    expect((await t.admin().get(`/admin/v1/clients/${clientId}/webhook-endpoints`)).status).toBe(401);
  });

  it("pages an endpoint's recent deliveries, newest first, with a cursor, the same both ways", async () => {
    const { id } = await createEndpoint();
    // Two events for it: keys of its client, created through the tool (its listeners write the events).
    for (let i = 0; i < 2; i++) await cli('keys', 'create', '--client', String(clientId));
    const deliveries = (query: string) => t.admin().get(`/admin/v1/webhook-endpoints/${id}/deliveries${query}`).set(auth);
    const all = await eventually(
      async () => (await deliveries('')).body as { items: Array<{ id: number; eventType: string; status: number }> },
      (page) => page.items.length >= 2,
    );
    expect(all.items.map(({ eventType, status }) => [eventType, status])).toEqual([
      ['key.created', 204],
      ['key.created', 204],
    ]);
    const first = (await deliveries('?limit=1').expect(200)).body as { items: unknown[]; nextCursor: string };
    expect(first).toEqual({ items: [all.items[0]], nextCursor: expect.any(String) });
    const second = (await deliveries(`?limit=1&cursor=${first.nextCursor}`).expect(200)).body;
    expect(second.items).toEqual([all.items[1]]);
    expect(await cli('webhooks', 'deliveries', String(id), '--limit', '1')).toEqual(first);
    expect(await cli('webhooks', 'deliveries', String(id), '--limit', '1', '--cursor', first.nextCursor)).toEqual(second);
    const refused = await runCliInProcess(['webhooks', 'deliveries', String(id), '--cursor', 'not-a-cursor'], database.url);
    expect(refused.code).toBe(2);
    expectNoSecret([all, first, second]);
  });

  it('disables an endpoint, audited as the admin token or the tool, until its client enables it again', async () => {
    const byAdmin = await createEndpoint();
    const disabled = await t.admin().post(`/admin/v1/webhook-endpoints/${byAdmin.id}/disable`).set(auth).expect(200);
    expect(disabled.body).toMatchObject({ id: byAdmin.id, clientId, enabled: false, disabledReason: 'Disabled by an operator.' });
    expectNoSecret(disabled.body);
    const again = await t.admin().post(`/admin/v1/webhook-endpoints/${byAdmin.id}/disable`).set(auth).expect(200);
    expect(again.body).toEqual(disabled.body);
    const seen = await t
      .http()
      .get(`/v1/webhook-endpoints/${byAdmin.id}`)
      .set({ Authorization: `Bearer ${key}` })
      .expect(200);
    expect(seen.body).toMatchObject({ enabled: false, disabledReason: 'Disabled by an operator.' });

    const byTool = await createEndpoint();
    const text = await runCliInProcess(['webhooks', 'disable', String(byTool.id)], database.url);
    expect(text).toEqual({
      code: 0,
      stdout: `Disabled webhook endpoint ${byTool.id} of client ${clientId}; its deliveries wait until the client enables it.\n`,
      stderr: '',
    });
    expect(await cli('webhooks', 'disable', String(byTool.id))).toMatchObject({ id: byTool.id, enabled: false });

    const audit = await t.dataSource.query<Array<{ actor: string; details: { endpointId: number } }>>(
      `SELECT actor, details::json AS details FROM audit_events WHERE action = 'webhook_endpoint.disabled' ORDER BY id`,
    );
    expect(audit.map(({ actor, details }) => [actor, details.endpointId])).toEqual([
      [`admin-token:${adminTokenId}`, byAdmin.id],
      ['cli', byTool.id],
    ]);
    expectNoSecret(audit);

    await t
      .http()
      .patch(`/v1/webhook-endpoints/${byAdmin.id}`)
      .set({ Authorization: `Bearer ${key}` })
      .send({ enabled: true })
      .expect(200);
    const listed = (await cli('webhooks', 'list', '--client', String(clientId))) as { webhookEndpoints: OperatorEndpoint[] };
    expect(listed.webhookEndpoints.find(({ id }) => id === byAdmin.id)).toMatchObject({ enabled: true, disabledReason: null });
  });

  it('documents its admin operations in the admin document only', async () => {
    const document = (await t.admin().get('/admin/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const operations = Object.entries(document.paths)
      .filter(([path]) => path.includes('webhook-endpoints'))
      .flatMap(([path, item]) => Object.entries(item).map(([method, { operationId }]) => [`${method} ${path}`, operationId]));
    expect(Object.fromEntries(operations)).toEqual({
      'get /admin/v1/clients/{clientId}/webhook-endpoints': 'listClientWebhookEndpoints',
      'get /admin/v1/webhook-endpoints/{endpointId}/deliveries': 'listWebhookEndpointDeliveries',
      'post /admin/v1/webhook-endpoints/{endpointId}/disable': 'disableWebhookEndpoint',
    });
    expect((await t.http().get('/admin/v1/webhook-endpoints/1/deliveries').set(auth)).status).toBe(404);
  });
});
