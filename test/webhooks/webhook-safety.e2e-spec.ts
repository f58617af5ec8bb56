import type { LookupAddress } from 'node:dns';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { ApiKeysService } from '../../src/modules/auth/index.js';
import { ClientsService } from '../../src/modules/plans/index.js';
import { HostResolver, SystemResolver } from '../../src/modules/webhooks/target-address.js';
import { eventually } from '../support/eventually.js';
import { createTestApp, OPERATOR, type TestApp } from '../support/test-app.js';

/** DNS as the test says for the names it holds (changeable mid-test); the system's resolver for any other (`localhost`). */
class StagedResolver extends SystemResolver {
  readonly names = new Map<string, string[]>();

  override resolve(hostname: string): Promise<LookupAddress[]> {
    const staged = this.names.get(hostname);
    if (!staged) return super.resolve(hostname);
    return Promise.resolve(staged.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  }
}

/** A listener on loopback that counts the connections it is offered: a blocked attempt must never reach it. */
class CountingListener {
  connections = 0;
  private readonly sockets = new Set<Socket>();
  private readonly server: Server = createServer((socket) => {
    this.connections++;
    this.sockets.add(socket);
    socket.destroy();
  });

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const PUBLIC = '93.184.216.34';
/** Short waits, so the attempt (and a retry) shows within the test; private targets NOT allowed. */
const ENV = { WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_RETRY_SCHEDULE: '1s', WEBHOOK_TIMEOUT_MS: '1000' };
const as = (key: string) => ({ Authorization: `Bearer ${key}` });

async function managerOf(t: TestApp): Promise<{ clientId: number; key: string }> {
  const client = await t.app.get(ClientsService).create('Safety', 'enterprise', { perMinute: 100_000, perDay: 1_000_000 }, OPERATOR);
  return { clientId: client.id, key: (await t.app.get(ApiKeysService).issue(client.id, { scopes: ['webhooks:manage'] }, OPERATOR)).key };
}

describe('webhook targets (e2e): private addresses refused when saved and at each attempt', () => {
  let t: TestApp;
  let listener: CountingListener;
  let manager: string;
  const resolver = new StagedResolver();
  const create = (url: string) =>
    t
      .http()
      .post('/v1/webhook-endpoints')
      .set(as(manager))
      .send({ url, eventTypes: ['pet.created'] });
  const attemptsAt = (endpointId: number) =>
    t.dataSource.query<Array<{ event_id: string; error: string | null; status_code: number | null; attempt: number }>>(
      'SELECT event_id, error, status_code, attempt FROM webhook_attempts WHERE endpoint_id = $1 ORDER BY id',
      [endpointId],
    );

  beforeAll(async () => {
    listener = await new CountingListener().start();
    t = await createTestApp({ env: ENV, overrides: [{ provide: HostResolver, useValue: resolver }] });
    manager = (await managerOf(t)).key;
    resolver.names.set('hooks.example', [PUBLIC]);
    resolver.names.set('internal.example', ['10.0.0.7']);
    resolver.names.set('metadata.example', ['169.254.169.254']);
    resolver.names.set('v6-metadata.example', ['fd00:ec2::254']);
    resolver.names.set('mixed.example', [PUBLIC, '127.0.0.1']);
  });
  afterAll(async () => {
    await t.close();
    await listener.stop();
  });

  it.each([
    'http://127.0.0.1/hooks',
    'http://10.0.0.1/hooks',
    'http://172.16.0.1/hooks',
    'http://192.168.1.1/hooks',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.100.100.200/latest/meta-data/',
    'http://0.0.0.0/hooks',
    'http://[::1]/hooks',
    'http://[fe80::1]/hooks',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://[::ffff:127.0.0.1]/hooks',
    // Spellings of 127.0.0.1 the URL parser normalises.
    'http://127.1/hooks',
    'http://2130706433/hooks',
    'http://0x7f.0.0.1/hooks',
    'http://localhost/hooks',
    'http://localhost:8080/hooks',
    'https://internal.example/hooks',
    'https://metadata.example/hooks',
    'https://v6-metadata.example/hooks',
    'https://mixed.example/hooks',
    'https://nowhere.invalid/hooks',
  ])('refuses %s when it is saved, with 400 validation_failed on url, saving nothing', async (url) => {
    const before = (await t.dataSource.query<Array<{ n: string }>>('SELECT count(*) AS n FROM webhook_endpoints'))[0].n;
    const response = await create(url);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'url', message: expect.stringMatching(/public/) }],
    });
    expect((await t.dataSource.query<Array<{ n: string }>>('SELECT count(*) AS n FROM webhook_endpoints'))[0].n).toBe(before);
  });

  it('refuses the same on a change of url, and saves a name that resolves to public addresses only', async () => {
    const saved = await create('https://hooks.example/in').expect(201);
    const refused = await t
      .http()
      .patch(`/v1/webhook-endpoints/${saved.body.id}`)
      .set(as(manager))
      .send({ url: 'http://169.254.169.254/latest/meta-data/' });
    expect([refused.status, refused.body.code, refused.body.details?.[0]?.field]).toEqual([400, 'validation_failed', 'url']);
    expect((await t.http().get(`/v1/webhook-endpoints/${saved.body.id}`).set(as(manager)).expect(200)).body.url).toBe(
      'https://hooks.example/in',
    );
  });

  it('refuses an attempt at a name that resolves to loopback only at delivery time, never connecting to it', async () => {
    resolver.names.set('rebinding.example', [PUBLIC]);
    const endpoint = (await create(`http://rebinding.example:${listener.port}/hooks`).expect(201)).body as { id: number };
    resolver.names.set('rebinding.example', ['127.0.0.1']);
    const { eventId } = (await t.http().post(`/v1/webhook-endpoints/${endpoint.id}/test`).set(as(manager)).expect(202)).body;
    // The first attempt and its retry a second later: each resolves again, and each is refused.
    const attempts = await eventually(
      () => attemptsAt(endpoint.id),
      (rows) => rows.length >= 2,
      10_000,
    );
    expect(attempts).toEqual([
      { event_id: eventId, error: 'blocked_address', status_code: null, attempt: 1 },
      { event_id: eventId, error: 'blocked_address', status_code: null, attempt: 2 },
    ]);
    const listed = (await t.http().get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`).set(as(manager)).expect(200)).body;
    expect(listed[0]).toMatchObject({ eventId, status: null, error: 'blocked_address' });
    expect(listener.connections).toBe(0);
  });

  it('refuses an attempt at a loopback address literal saved before private targets were refused, never connecting to it', async () => {
    const endpoint = (await create('https://hooks.example/in').expect(201)).body as { id: number };
    // As an endpoint saved while WEBHOOK_ALLOW_PRIVATE_TARGETS was true, or written by an older build.
    await t.dataSource.query('UPDATE webhook_endpoints SET url = $1 WHERE id = $2', [
      `http://127.0.0.1:${listener.port}/hooks`,
      endpoint.id,
    ]);
    await t.http().post(`/v1/webhook-endpoints/${endpoint.id}/test`).set(as(manager)).expect(202);
    const [attempt] = await eventually(
      () => attemptsAt(endpoint.id),
      (rows) => rows.length >= 1,
    );
    expect(attempt).toMatchObject({ error: 'blocked_address', status_code: null });
    expect(listener.connections).toBe(0);
  });

  it('a control: the same listener is connected to once private targets are allowed', async () => {
    resolver.names.set('rebinding.example', ['127.0.0.1']);
    const allowing = await createTestApp({
      env: { ...ENV, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
      overrides: [{ provide: HostResolver, useValue: resolver }],
    });
    try {
      const own = await managerOf(allowing);
      const endpoint = await allowing
        .http()
        .post('/v1/webhook-endpoints')
        .set(as(own.key))
        .send({ url: `http://rebinding.example:${listener.port}/hooks`, eventTypes: ['pet.created'] })
        .expect(201);
      await allowing.http().post(`/v1/webhook-endpoints/${endpoint.body.id}/test`).set(as(own.key)).expect(202);
      expect(
        await eventually(
          () => Promise.resolve(listener.connections),
          (n) => n > 0,
        ),
      ).toBeGreaterThan(0);
    } finally {
      await allowing.close();
    }
  });
});

describe('webhook targets in production (e2e): HTTPS only', () => {
  let t: TestApp;
  let manager: string;
  const resolver = new StagedResolver();

  beforeAll(async () => {
    resolver.names.set('hooks.example', [PUBLIC]);
    t = await createTestApp({
      env: { NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://api.pets.example/v1', WEBHOOK_DELIVERY: 'false' },
      overrides: [{ provide: HostResolver, useValue: resolver }],
    });
    manager = (await managerOf(t)).key;
  });
  afterAll(() => t.close());

  it('refuses an http:// URL with 400 validation_failed on url, on creation and on change, and saves an https:// one', async () => {
    const refused = await t
      .http()
      .post('/v1/webhook-endpoints')
      .set(as(manager))
      .send({ url: 'http://hooks.example/in', eventTypes: ['pet.created'] });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'url', message: 'url must be https in production' }],
    });
    const saved = await t
      .http()
      .post('/v1/webhook-endpoints')
      .set(as(manager))
      .send({ url: 'https://hooks.example/in', eventTypes: ['pet.created'] })
      .expect(201);
    expect(saved.headers.location).toBe(`https://api.pets.example/v1/webhook-endpoints/${saved.body.id}`);
    const changed = await t
      .http()
      .patch(`/v1/webhook-endpoints/${saved.body.id}`)
      .set(as(manager))
      .send({ url: 'http://hooks.example/in' });
    expect([changed.status, changed.body.code, changed.body.details?.[0]?.field]).toEqual([400, 'validation_failed', 'url']);
  });
});
