import { Writable } from 'node:stream';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { AdminTokensService, createAdminApp } from '../../src/modules/admin/index.js';
import { hashApiKey } from '../../src/modules/auth/api-key.format.js';
import { createLogger, PINO_LOGGER } from '../../src/platform/logging/index.js';
import { eventually } from '../support/eventually.js';
import { createTestApp, OPERATOR, type TestApp } from '../support/test-app.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const ENV = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  WEBHOOK_RETRY_SCHEDULE: '1s,1s',
  WEBHOOK_TIMEOUT_MS: '1000',
};
const EVENT_TYPES = ['pet.created', 'key.created', 'key.rolled', 'key.revoked', 'plan.changed', 'quota.threshold_reached'];

/**
 * Every secret the run makes (API keys, admin tokens, webhook secrets) and the forms the service keeps of them
 * (a key's or token's SHA-256 hash, a webhook secret's base64 bytes), to be looked for where none may be.
 */
class Secrets {
  readonly all = new Map<string, string>();

  key(key: string, what: string): string {
    this.all.set(key, what);
    this.all.set(hashApiKey(key), `the hash of ${what}`);
    return key;
  }

  webhookSecret(secret: string, what: string): string {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    this.all.set(secret, what);
    this.all.set(secret.slice('whsec_'.length), `the bytes of ${what}`);
    return secret;
  }

  foundIn(text: string): string[] {
    return [...this.all].filter(([secret]) => text.includes(secret)).map(([, what]) => what);
  }
}

describe('no key, hash, token or webhook secret in event bodies, delivery records or the log (e2e)', () => {
  let t: TestApp;
  let adminApp: NestExpressApplication;
  let receiver: WebhookReceiver;
  let logged = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged += chunk.toString();
      done();
    },
  });
  const secrets = new Secrets();
  const as = (key: string) => ({ Authorization: `Bearer ${key}` });

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await createTestApp({
      env: ENV,
      // Every log line at debug level, through the service's own logger and its redaction.
      overrides: [{ provide: PINO_LOGGER, useValue: createLogger({ logLevel: 'debug', production: true }, sink) }],
    });
    adminApp = await createAdminApp(t.app);
    await adminApp.init();
  });
  afterAll(async () => {
    await adminApp.close();
    await t.close();
    await receiver.stop();
  });

  it('after keys are created, rolled and revoked, endpoints created and their secrets rotated, and events delivered', async () => {
    const tokens = t.app.get(AdminTokensService);
    const adminToken = secrets.key((await tokens.create('scan', OPERATOR)).token, 'an admin token');
    const revokedToken = await tokens.create('scan, revoked', OPERATOR);
    secrets.key(revokedToken.token, 'a revoked admin token');
    await tokens.revoke(revokedToken.adminToken.id, OPERATOR);
    const admin = () => request(adminApp.getHttpServer());

    // An operator makes the client and its first key through the admin API.
    const client = (
      await admin()
        .post('/admin/v1/clients')
        .set(as(adminToken))
        .send({ name: 'Scanned', plan: 'enterprise', perMinute: 1_000, perDay: 50 })
        .expect(201)
    ).body as { id: number };
    const issued = await admin()
      .post(`/admin/v1/clients/${client.id}/keys`)
      .set(as(adminToken))
      .send({ name: 'manager', scopes: ['pets:read', 'pets:write', 'keys:manage', 'webhooks:manage'] })
      .expect(201);
    const manager = secrets.key(issued.body.key, 'the manager key');
    const operatorRolled = await admin()
      .post(`/admin/v1/clients/${client.id}/keys/${issued.body.id}/roll`)
      .set(as(adminToken))
      .send({ overlapSeconds: 600 })
      .expect(201);
    secrets.key(operatorRolled.body.key, 'the key an operator rolled');

    // The client's endpoints: one that answers at once, one that fails first (so its attempts are retried).
    const endpoints = [];
    for (const url of [receiver.url, `${receiver.url}?flaky=1`]) {
      const created = await t.http().post('/v1/webhook-endpoints').set(as(manager)).send({ url, eventTypes: EVENT_TYPES }).expect(201);
      receiver.secrets.push(secrets.webhookSecret(created.body.secret, `the secret of endpoint ${created.body.id}`));
      endpoints.push(created.body as { id: number });
    }
    let flakyAnswered = 0;
    receiver.answer = () => (flakyAnswered++ % 3 === 0 ? 500 : 204);
    for (const [round, endpoint] of [...endpoints, endpoints[0]].entries()) {
      const rotated = await t
        .http()
        .post(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`)
        .set(as(manager))
        .send({ overlapSeconds: 600 })
        .expect(201);
      receiver.secrets.push(secrets.webhookSecret(rotated.body.secret, `rotation ${round} of endpoint ${endpoint.id}`));
    }

    // Keys through the public API: created, rolled, revoked.
    const created = await t
      .http()
      .post('/v1/keys')
      .set(as(manager))
      .send({ name: 'deploy', scopes: ['pets:read'] })
      .expect(201);
    secrets.key(created.body.key, 'a key the client created');
    const rolled = await t.http().post(`/v1/keys/${created.body.id}/roll`).set(as(manager)).send({ overlapSeconds: 60 }).expect(201);
    secrets.key(rolled.body.key, 'a key the client rolled');
    await t.http().delete(`/v1/keys/${rolled.body.id}`).set(as(manager)).expect(204);
    await admin().delete(`/admin/v1/clients/${client.id}/keys/${created.body.id}`).set(as(adminToken)).expect(204);

    // A pet, a plan change, a test event and its redelivery, then the day's quota (60) spent: both thresholds.
    await t.http().post('/v1/pets').set(as(manager)).send({ name: 'Scan', categoryId: 1 }).expect(201);
    await admin()
      .put(`/admin/v1/clients/${client.id}/plan`)
      .set(as(adminToken))
      .send({ plan: 'enterprise', perMinute: 1_000, perDay: 60 })
      .expect(200);
    const { eventId } = (await t.http().post(`/v1/webhook-endpoints/${endpoints[1].id}/test`).set(as(manager)).expect(202)).body;
    await eventually(
      () => Promise.resolve(receiver.events('webhook.test').size),
      (n) => n >= 1,
    );
    await t.http().post(`/v1/webhook-endpoints/${endpoints[1].id}/deliveries/${eventId}/redeliver`).set(as(manager)).expect(202);
    while ((await t.http().get('/v1/pets?limit=1').set(as(manager))).status === 200);

    const types = [...EVENT_TYPES, 'webhook.test'];
    const seen = await eventually(
      () => Promise.resolve(new Set(receiver.received.map(({ event }) => event.type))),
      // pet.created waits for every older write transaction on the server, other suites' too (docs/faults.md).
      (got) => types.every((type) => got.has(type)),
      30_000,
    );
    expect([...seen].sort()).toEqual([...types].sort());
    await eventually(
      () => t.dataSource.query<Array<{ n: string }>>(`SELECT count(*) AS n FROM webhook_deliveries WHERE state = 'pending'`),
      ([{ n }]) => n === '0',
      15_000,
    );
    expect(receiver.forged).toEqual([]);

    const tables = {
      webhook_events: await t.dataSource.query('SELECT * FROM webhook_events'),
      webhook_deliveries: await t.dataSource.query('SELECT * FROM webhook_deliveries'),
      webhook_attempts: await t.dataSource.query('SELECT * FROM webhook_attempts'),
    };
    const counts = Object.fromEntries(Object.entries(tables).map(([name, rows]: [string, unknown[]]) => [name, rows.length]));
    console.log(
      `scanned: ${JSON.stringify(counts)}, ${logged.split('\n').length - 1} log lines, for ${secrets.all.size} secrets and hashes`,
    );
    // Not vacuous: the rows and the log are there, with retries among the attempts.
    expect(counts.webhook_events).toBeGreaterThanOrEqual(types.length);
    expect(counts.webhook_attempts).toBeGreaterThan(counts.webhook_deliveries);
    expect(logged).toContain('"url":"/v1/webhook-endpoints');
    expect(logged).toContain('rotate-secret');
    for (const [name, rows] of Object.entries(tables)) {
      const text = JSON.stringify(rows);
      expect({ name, found: secrets.foundIn(text) }).toEqual({ name, found: [] });
      expect({ name, shapes: text.match(/whsec_|pets_[0-9A-Za-z]{38}|pets_admin_[0-9A-Za-z]{38}|[0-9a-f]{64}/g) }).toEqual({
        name,
        shapes: null,
      });
    }
    expect(secrets.foundIn(logged)).toEqual([]);
    expect(logged.match(/whsec_|pets_[0-9A-Za-z]{38}|[0-9a-f]{64}/g)).toBeNull();
  }, 90_000);
});
