import { TransactionHost } from '../../src/platform/database/index.js';
import { WebhookWatch } from '../../src/modules/webhooks/webhook-watch.js';
import { PetsService } from '../../src/modules/pets/pets.service.js';
import { ApiKeysService } from '../../src/modules/auth/index.js';
import { ClientsService } from '../../src/modules/plans/index.js';
import { eventually } from '../support/eventually.js';
import { createTestApp, OPERATOR, type TestApp } from '../support/test-app.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/** Short waits, so retries show within a test; the decided schedule is the default (webhooks.config.ts). */
const ENV = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  WEBHOOK_RETRY_SCHEDULE: '1s,1s',
  WEBHOOK_TIMEOUT_MS: '1000',
};

describe('webhooks (e2e)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let clientId: number;
  let manager: string;
  const as = (key: string) => ({ Authorization: `Bearer ${key}` });
  const keyOf = async (client: number, scopes = ['pets:read', 'pets:write', 'keys:manage', 'webhooks:manage']) =>
    (await t.app.get(ApiKeysService).issue(client, { scopes }, OPERATOR)).key;
  const newClient = async () =>
    (await t.app.get(ClientsService).create('Hooks', 'enterprise', { perMinute: 100_000, perDay: 1_000_000 }, OPERATOR)).id;
  const createEndpoint = async (eventTypes: string[], key = manager, url = receiver.url) => {
    const response = await t.http().post('/v1/webhook-endpoints').set(as(key)).send({ url, eventTypes }).expect(201);
    receiver.secrets.push(response.body.secret);
    return response.body as { id: number; secret: string };
  };
  /** Within 30 s: `pet.created` waits for every older write transaction on the server, other suites' too (docs/faults.md). */
  const arrived = (type: string, count = 1) =>
    eventually(
      () => Promise.resolve(receiver.events(type)),
      (events) => events.size >= count,
      30_000,
    );
  const createPet = (name: string) => t.http().post('/v1/pets').set(as(manager)).send({ name, categoryId: 1 }).expect(201);

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await createTestApp({ env: ENV });
    clientId = await newClient();
    manager = await keyOf(clientId);
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.answer = () => 204;
  });

  it('needs the webhooks:manage scope, which no key holds by default', async () => {
    const plain = (await t.app.get(ApiKeysService).issue(clientId, {}, OPERATOR)).key;
    const refused = await t.http().get('/v1/webhook-endpoints').set(as(plain)).expect(403);
    expect(refused.body).toMatchObject({ code: 'insufficient_scope', message: expect.stringContaining('webhooks:manage') });
  });

  it('creates an endpoint with its secret shown once, then lists and reads it without the secret', async () => {
    const response = await t
      .http()
      .post('/v1/webhook-endpoints')
      .set(as(manager))
      .send({ url: receiver.url, eventTypes: ['pet.created', 'pet.created'], description: 'ours' })
      .expect(201);
    receiver.secrets.push(response.body.secret);
    expect(response.body).toEqual({
      id: expect.any(Number),
      url: receiver.url,
      eventTypes: ['pet.created'],
      description: 'ours',
      enabled: true,
      createdAt: expect.any(String),
      disabledReason: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(response.headers.location).toMatch(new RegExp(`/v1/webhook-endpoints/${response.body.id}$`));
    const shown = { ...response.body, secret: undefined };
    delete shown.secret;
    expect((await t.http().get('/v1/webhook-endpoints').set(as(manager)).expect(200)).body).toContainEqual(shown);
    expect((await t.http().get(`/v1/webhook-endpoints/${shown.id}`).set(as(manager)).expect(200)).body).toEqual(shown);
    const audit = await t.dataSource.query(`SELECT details::json AS details FROM audit_events WHERE action = 'webhook_endpoint.created'`);
    expect(audit).toContainEqual({ details: { endpointId: shown.id, host: new URL(receiver.url).host, eventTypes: ['pet.created'] } });
    expect(JSON.stringify(audit)).not.toContain(response.body.secret);
  });

  it("answers another client's endpoint as not found", async () => {
    const endpoint = await createEndpoint(['pet.created']);
    const stranger = await keyOf(await newClient());
    for (const call of [
      t.http().get(`/v1/webhook-endpoints/${endpoint.id}`),
      t.http().patch(`/v1/webhook-endpoints/${endpoint.id}`).send({ enabled: false }),
      t.http().delete(`/v1/webhook-endpoints/${endpoint.id}`),
      t.http().post(`/v1/webhook-endpoints/${endpoint.id}/test`),
    ]) {
      expect((await call.set(as(stranger)).expect(404)).body).toMatchObject({ code: 'not_found' });
    }
  });

  it('delivers pet.created with a signature the Standard Webhooks library verifies', async () => {
    await createEndpoint(['pet.created']);
    const pet = (await createPet('Rex')).body;
    const events = await arrived('pet.created');
    const [delivery] = [...events.values()].filter(({ event }) => event.data.id === pet.id);
    expect(delivery.event).toEqual({ id: delivery.id, type: 'pet.created', createdAt: expect.any(String), data: pet });
    expect(delivery.event.data).toEqual((await t.http().get(`/v1/pets/${pet.id}`).set(as(manager)).expect(200)).body);
    expect(delivery.event.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(delivery.id).toMatch(/^evt_[0-9a-f]{32}$/);
    // Written by the worker after the creation's commit, yet dated by it: the id's microseconds are its createdAt.
    expect(Math.abs(parseInt(delivery.id.slice(4, 20), 16) / 1000 - Date.parse(delivery.event.createdAt))).toBeLessThan(1);
    expect(Math.abs(Number(delivery.timestamp) - Date.now() / 1000)).toBeLessThan(10);
    expect(receiver.forged).toEqual([]);
  }, 60_000);

  it('tells the client of its keys, never the key itself', async () => {
    const other = await newClient();
    const key = await keyOf(other, ['keys:manage', 'webhooks:manage']);
    await createEndpoint(['key.created', 'key.rolled', 'key.revoked'], key);
    const created = (
      await t
        .http()
        .post('/v1/keys')
        .set(as(key))
        .send({ name: 'deploy', scopes: ['keys:manage'] })
        .expect(201)
    ).body;
    const rolled = (await t.http().post(`/v1/keys/${created.id}/roll`).set(as(key)).send({ overlapSeconds: 60 }).expect(201)).body;
    await t.http().delete(`/v1/keys/${rolled.id}`).set(as(key)).expect(204);
    for (const type of ['key.created', 'key.rolled', 'key.revoked']) await arrived(type);
    const data = (type: string) => [...receiver.events(type).values()].map(({ event }) => event.data);
    const fields = { name: 'deploy', scopes: ['keys:manage'] };
    expect(data('key.created')).toEqual([{ id: created.id, prefix: created.prefix, expiresAt: null, ...fields }]);
    expect(data('key.rolled')).toEqual([
      { id: created.id, prefix: created.prefix, expiresAt: expect.any(String), successorId: rolled.id, ...fields },
    ]);
    expect(data('key.revoked')).toEqual([{ id: rolled.id, prefix: rolled.prefix, expiresAt: null, ...fields }]);
    const bodies = JSON.stringify(await t.dataSource.query('SELECT body FROM webhook_events'));
    for (const secret of [key, created.key, rolled.key]) expect(bodies).not.toContain(secret);
  });

  it('tells the client of its plan change', async () => {
    const other = await newClient();
    await createEndpoint(['plan.changed'], await keyOf(other, ['webhooks:manage']));
    await t.app.get(ClientsService).setPlan(other, 'pro', {}, OPERATOR);
    const [{ event }] = (await arrived('plan.changed')).values();
    expect(event.data).toEqual({
      from: { plan: 'enterprise', limits: { perMinute: 100_000, perDay: 1_000_000 } },
      to: { plan: 'pro', limits: expect.objectContaining({ perDay: expect.any(Number) }) },
    });
  });

  it('sends nothing for a change that rolls back', async () => {
    await createEndpoint(['pet.created']);
    const rolledBack = t.app.get(TransactionHost).withTransaction(async () => {
      await t.app.get(PetsService).create({ name: 'Ghost', categoryId: 1 });
      throw new Error('the change fails after its event was written');
    });
    await expect(rolledBack).rejects.toThrow('fails after');
    expect(await t.dataSource.query(`SELECT id FROM pets WHERE name = 'Ghost'`)).toEqual([]);
    // The creation after it arrives, so the worker has taken everything queued before it.
    await createPet('Kept');
    await eventually(
      () => Promise.resolve([...receiver.events('pet.created').values()].map(({ event }) => event.data.name)),
      (names) => names.includes('Kept'),
    );
    expect([...receiver.events('pet.created').values()].filter(({ event }) => event.data.name === 'Ghost')).toEqual([]);
    expect(await t.dataSource.query(`SELECT id FROM webhook_events WHERE body LIKE '%Ghost%'`)).toEqual([]);
  });

  it('retries a failed attempt with the same webhook-id, and lists every attempt newest first', async () => {
    const endpoint = await createEndpoint(['plan.changed']);
    receiver.answer = (attempt) => (receiver.received.filter(({ id }) => id === attempt.id).length === 1 ? 500 : 204);
    const { eventId } = (await t.http().post(`/v1/webhook-endpoints/${endpoint.id}/test`).set(as(manager)).expect(202)).body;
    const attempts = await eventually(
      () => Promise.resolve(receiver.received.filter(({ id }) => id === eventId)),
      (seen) => seen.length >= 2,
      8_000,
    );
    expect(attempts.map(({ event }) => event.type)).toEqual(['webhook.test', 'webhook.test']);
    const listed = await eventually(
      async () => (await t.http().get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`).set(as(manager))).body,
      (items: unknown[]) => items.length >= 2,
    );
    expect(listed).toEqual([
      expect.objectContaining({ eventId, eventType: 'webhook.test', attempt: 2, status: 204, error: null }),
      expect.objectContaining({ eventId, eventType: 'webhook.test', attempt: 1, status: 500, error: null }),
    ]);
    const first = await t.http().get(`/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=1`).set(as(manager)).expect(200);
    expect(first.body).toEqual([listed[0]]);
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.link)![1];
    expect(next).toMatch(new RegExp(`/v1/webhook-endpoints/${endpoint.id}/deliveries\\?limit=1&cursor=`));
    const second = await t
      .http()
      .get(new URL(next).pathname + new URL(next).search)
      .set(as(manager))
      .expect(200);
    expect(second.body).toEqual([listed[1]]);
    expect(second.headers.link).toBeUndefined();
    await t.http().post(`/v1/webhook-endpoints/${endpoint.id}/deliveries/${eventId}/redeliver`).set(as(manager)).expect(202);
    await eventually(
      () => Promise.resolve(receiver.received.filter(({ id }) => id === eventId).length),
      (n) => n >= 3,
    );
    const unknown = await t
      .http()
      .post(`/v1/webhook-endpoints/${endpoint.id}/deliveries/evt_00000000000000000000000000000000/redeliver`)
      .set(as(manager));
    expect(unknown.status).toBe(404);
  });

  it('records why an attempt got no response', async () => {
    const endpoint = await createEndpoint(['plan.changed']);
    receiver.answer = () => 'hang';
    const { eventId } = (await t.http().post(`/v1/webhook-endpoints/${endpoint.id}/test`).set(as(manager)).expect(202)).body;
    const listed = await eventually(
      async () =>
        (await t.http().get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`).set(as(manager))).body as Array<{ eventId: string }>,
      (items) => items.some((item) => item.eventId === eventId),
    );
    expect(listed.find((item) => item.eventId === eventId)).toMatchObject({
      status: null,
      error: 'timeout',
      durationMs: expect.any(Number),
    });
  });

  it('signs with both secrets during a rotation overlap', async () => {
    const endpoint = await createEndpoint(['plan.changed']);
    const rotated = await t
      .http()
      .post(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`)
      .set(as(manager))
      .send({ overlapSeconds: 600 })
      .expect(201);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    receiver.secrets = [rotated.body.secret];
    await t.http().post(`/v1/webhook-endpoints/${endpoint.id}/test`).set(as(manager)).expect(202);
    const [delivery] = (await arrived('webhook.test')).values();
    expect(delivery.signatures).toHaveLength(2);
    receiver.secrets = [endpoint.secret]; // the old secret alone still verifies, during the overlap
    receiver.received.length = 0;
    await t.http().post(`/v1/webhook-endpoints/${endpoint.id}/test`).set(as(manager)).expect(202);
    await arrived('webhook.test');
    expect(receiver.forged).toEqual([]);
    receiver.secrets.push(rotated.body.secret);
  });

  it('refuses an endpoint more than ten, and a bad URL or event type, changing nothing', async () => {
    const other = await newClient();
    const key = await keyOf(other, ['webhooks:manage']);
    for (let i = 0; i < 10; i++) await createEndpoint(['pet.created'], key);
    const refused = await t
      .http()
      .post('/v1/webhook-endpoints')
      .set(as(key))
      .send({ url: receiver.url, eventTypes: ['pet.created'] })
      .expect(409);
    expect(refused.body).toMatchObject({ code: 'endpoint_limit_reached', status: 409 });
    for (const body of [
      { url: 'ftp://example.com/x', eventTypes: ['pet.created'] },
      { url: 'https://user:pw@example.com/x', eventTypes: ['pet.created'] },
      { url: 'not a url', eventTypes: ['pet.created'] },
      { url: receiver.url, eventTypes: [] },
      { url: receiver.url, eventTypes: ['pet.sold'] },
      { url: receiver.url, eventTypes: ['webhook.test'] },
      { eventTypes: ['pet.created'] },
    ]) {
      const response = await t.http().post('/v1/webhook-endpoints').set(as(manager)).send(body);
      expect([response.status, response.body.code]).toEqual([400, 'validation_failed']);
    }
  });

  it('sends nothing to a disabled endpoint until it is enabled again', async () => {
    const endpoint = await createEndpoint(['plan.changed']);
    await t.http().patch(`/v1/webhook-endpoints/${endpoint.id}`).set(as(manager)).send({ enabled: false }).expect(200);
    const { eventId } = (await t.http().post(`/v1/webhook-endpoints/${endpoint.id}/test`).set(as(manager)).expect(202)).body;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received.filter(({ id }) => id === eventId)).toEqual([]);
    const enabled = await t.http().patch(`/v1/webhook-endpoints/${endpoint.id}`).set(as(manager)).send({ enabled: true }).expect(200);
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null });
    await eventually(
      () => Promise.resolve(receiver.received.filter(({ id }) => id === eventId).length),
      (n) => n === 1,
    );
  });

  it('shows attempts by outcome, the deliveries pending and the lag on /metrics', async () => {
    const endpoint = await createEndpoint(['plan.changed']);
    receiver.answer = () => 503;
    const { eventId } = (await t.http().post(`/v1/webhook-endpoints/${endpoint.id}/test`).set(as(manager)).expect(202)).body;
    await eventually(
      () => Promise.resolve(receiver.received.filter(({ id }) => id === eventId).length),
      (n) => n >= 1,
    );
    const metric = async (name: string) =>
      Number(
        /^(\S+) (\S+)$/m.exec(
          (await t.http().get('/metrics').expect(200)).text
            .split('\n')
            .filter((l) => l.startsWith(name))
            .join('\n'),
        )?.[2],
      );
    expect(
      await eventually(
        () => metric('webhook_delivery_attempts_total{outcome="retrying"}'),
        (n) => n >= 1,
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(await metric('webhook_deliveries_pending')).toBeGreaterThanOrEqual(1);
    expect(await metric('webhook_delivery_lag_seconds')).toBeGreaterThanOrEqual(0);
    await t.http().delete(`/v1/webhook-endpoints/${endpoint.id}`).set(as(manager)).expect(204);
  });

  it('disables an endpoint whose deliveries all failed for 5 days, until the client enables it', async () => {
    const endpoint = await createEndpoint(['plan.changed']);
    receiver.answer = () => 500;
    // Its first failure was 5 days and a minute ago, with no success since.
    await t.dataSource.query(`UPDATE webhook_endpoints SET failing_since = now() - interval '5 days 1 minute' WHERE id = $1`, [
      endpoint.id,
    ]);
    await t.http().post(`/v1/webhook-endpoints/${endpoint.id}/test`).set(as(manager)).expect(202);
    const disabled = await eventually(
      async () => (await t.http().get(`/v1/webhook-endpoints/${endpoint.id}`).set(as(manager))).body,
      (body: { enabled: boolean }) => !body.enabled,
    );
    expect(disabled).toMatchObject({ enabled: false, disabledReason: 'Every delivery failed for 5 days.' });
    receiver.answer = () => 204;
    const enabled = await t.http().patch(`/v1/webhook-endpoints/${endpoint.id}`).set(as(manager)).send({ enabled: true }).expect(200);
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null });
    const [row] = await t.dataSource.query(`SELECT failing_since FROM webhook_endpoints WHERE id = $1`, [endpoint.id]);
    expect(row.failing_since).toBeNull();
  });

  it('announces a key that expires within 7 days, once', async () => {
    const other = await newClient();
    await createEndpoint(['key.expiring'], await keyOf(other, ['webhooks:manage']));
    const soon = new Date(Date.now() + 6 * 86_400_000);
    const { apiKey } = await t.app.get(ApiKeysService).issue(other, { name: 'ci', expiresAt: soon }, OPERATOR);
    await t.app.get(ApiKeysService).issue(other, { name: 'later', expiresAt: new Date(Date.now() + 8 * 86_400_000) }, OPERATOR);
    const triggers = t.app.get(WebhookWatch);
    await triggers.announceExpiringKeys();
    await triggers.announceExpiringKeys();
    const [{ event }] = (await arrived('key.expiring')).values();
    expect(event.data).toEqual({ id: apiKey.id, name: 'ci', prefix: apiKey.prefix, scopes: apiKey.scopes, expiresAt: soon.toISOString() });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.events('key.expiring').size).toBe(1);
  });

  it('deletes an endpoint, which is then not found', async () => {
    const endpoint = await createEndpoint(['pet.created']);
    await t.http().delete(`/v1/webhook-endpoints/${endpoint.id}`).set(as(manager)).expect(204);
    await t.http().get(`/v1/webhook-endpoints/${endpoint.id}`).set(as(manager)).expect(404);
  });
});
