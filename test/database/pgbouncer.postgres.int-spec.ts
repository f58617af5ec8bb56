import type { Response } from 'supertest';
import { ApiKeysService } from '../../src/modules/auth/api-keys.service.js';
import { SERVER_MIGRATIONS as MIGRATIONS } from '../support/server-migrations.js';
import { FakeClock } from '../support/fake-clock.js';
import { sendIdenticalCreations } from '../support/identical-creations.js';
import { killMidCreation } from '../support/killed-creation.js';
import { walkPages } from '../support/page-walk.js';
import { PgBouncer } from '../support/pgbouncer.js';
import { emptyDatabase } from '../support/test-databases.js';
import { freePort, ServiceProcess } from '../support/service-process.js';
import { createTestApp, OPERATOR, type TestApp } from '../support/test-app.js';

/**
 * The service behind a real PgBouncer 1.18 in transaction pooling mode, in front of the
 * PostgreSQL database DATABASE_URL names: each transaction gets some server connection, and
 * statements outside a transaction may each get another one, so nothing may rely on session state.
 * Two server connections serve every instance's pool (10 connections each), so concurrent
 * transactions take turns on shared connections. A missing `pgbouncer` binary fails the suite.
 */
/** A database of this suite's own (test/support/test-databases.ts). */
const DATABASE_URL = await emptyDatabase();
const PGBOUNCER_PORT = 17_400;
const SERVER_CONNECTIONS = 2;
const RECOVERY_BOUND_MS = 10_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('PostgreSQL behind PgBouncer in transaction mode (integration)', () => {
  const bouncer = new PgBouncer({ port: PGBOUNCER_PORT, target: DATABASE_URL, poolSize: SERVER_CONNECTIONS });
  const clock = new FakeClock();
  const instances: TestApp[] = [];
  let auth: { Authorization: string };
  const figures = {
    requests: 0,
    created: 0,
    sameKeyRequests: 0,
    animals: 0,
    clients: 0,
    servers: 0,
    outage503s: 0,
    recoveryMs: NaN,
    killed: '',
  };

  /** Starts one more instance through PgBouncer; all are closed at the end. */
  const start = async () => {
    const instance = await createTestApp({ env: { DATABASE_URL: bouncer.url }, clock });
    instances.push(instance);
    return instance;
  };
  const count = (res: Response) => {
    figures.requests++;
    if (res.status === 201) figures.created++;
    return res;
  };
  const animals = async () => Number((await instances[0].dataSource.query('SELECT COUNT(*)::int AS n FROM pets'))[0].n);

  beforeAll(async () => {
    await bouncer.start();
    // The first instance applies the migrations through PgBouncer; the second finds them applied.
    await start();
    await start();
    auth = { Authorization: `Bearer ${await instances[0].newKey()}` };
  });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.close()));
    await bouncer.dispose();
    console.log(
      `PgBouncer 1.18 (transaction mode, ${SERVER_CONNECTIONS} server connections), 2 instances: ${figures.requests} requests, ` +
        `${figures.created} answered 201, ${figures.animals} animals in the table; ${figures.sameKeyRequests} concurrent requests under one ` +
        `Idempotency-Key created 1; a replica killed mid-INSERT: ${figures.killed}; ${figures.clients} client connections shared ${figures.servers} server connections; ` +
        `PgBouncer stopped: ${figures.outage503s} requests answered 503 service_unavailable; recovered ${figures.recoveryMs} ms after it started again`,
    );
  });

  it('starts two instances: the migrations are applied once, through PgBouncer', async () => {
    const [first, second] = instances;
    const applied = await first.dataSource.query('SELECT name FROM migrations ORDER BY id');
    expect(applied.map((row: { name: string }) => row.name)).toEqual(MIGRATIONS.map((migration) => migration.name));
    expect(await second.dataSource.showMigrations()).toBe(false);
    for (const instance of instances) expect((await instance.http().get('/health/ready')).status).toBe(200);
  });

  it('creates, pages (Link next) and gets animals across both instances', async () => {
    const [first, second] = instances;
    const created = [];
    for (let i = 0; i < 7; i++) {
      const res = count(
        await instances[i % 2]
          .http()
          .post('/v1/pets')
          .set(auth)
          .send({ name: `Walker ${i}`, categoryId: 3 }),
      );
      expect(res.status).toBe(201);
      created.push(res.body as { id: number });
    }
    expect(await walkPages(instances, '/v1/pets?limit=3', auth)).toEqual(created.map((pet) => pet.id));
    for (const pet of created) {
      expect((await first.http().get(`/v1/pets/${pet.id}`).set(auth)).body).toEqual(pet);
      expect((await second.http().get(`/v1/pets/${pet.id}`).set(auth)).body).toEqual(pet);
    }
  });

  it('runs concurrent creations on two instances over two shared server connections: one animal each', async () => {
    const before = await animals();
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        instances[i % 2]
          .http()
          .post('/v1/pets')
          .set({ ...auth, 'Idempotency-Key': `burst-${i}` })
          .send({ name: `Burst ${i}`, categoryId: 4 })
          .then(count),
      ),
    );
    expect(responses.map((res) => res.status)).toEqual(Array(40).fill(201));
    expect(new Set(responses.map((res) => res.body.id)).size).toBe(40);
    expect(await animals()).toBe(before + 40);
    const database = new URL(DATABASE_URL).pathname.slice(1);
    const clients = (await bouncer.show('CLIENTS')).filter((row) => row.database === database);
    const servers = (await bouncer.show('SERVERS')).filter((row) => row.database === database);
    [figures.clients, figures.servers] = [clients.length, servers.length];
    expect(servers.length).toBeLessThanOrEqual(SERVER_CONNECTIONS);
    expect(clients.length).toBeGreaterThan(2 * SERVER_CONNECTIONS);
  });

  it('creates once per Idempotency-Key: 20 concurrent identical requests over two instances, the others 409 or the replay', async () => {
    const headers = { ...auth, 'Idempotency-Key': 'pgbouncer-burst' };
    figures.sameKeyRequests = 20;
    const responses = await sendIdenticalCreations(instances.slice(0, 2), { headers, body: { name: 'Twin', categoryId: 5 }, count: 20 });
    responses.forEach(count);
    const [{ n }] = await instances[0].dataSource.query(`SELECT COUNT(*)::int AS n FROM pets WHERE name = 'Twin'`);
    expect(n).toBe(1);
  });

  it('frees the key of a replica killed mid-INSERT: within 2 s the retry on another replica gets through and creates once', async () => {
    const env = { DATABASE_URL: bouncer.url, DATABASE_MIGRATIONS_RUN: 'false', LOG_LEVEL: 'warn' };
    const [first, second] = [new ServiceProcess(await freePort(), env), new ServiceProcess(await freePort(), env)];
    try {
      await Promise.all([first.start(), second.start()]);
      const request = { headers: { ...auth, 'Idempotency-Key': 'pgbouncer-killed' }, body: { name: 'Orphan', categoryId: 5 } };
      const outcome = await killMidCreation({ first, second, databaseUrl: DATABASE_URL, request, lockHeldMs: 3_000 });
      figures.killed = `backend ended ${Math.round(outcome.backendEndedMs)} ms after the kill, retry through at ${Math.round(outcome.admittedMs)} ms, 201 at ${Math.round(outcome.answeredMs)} ms (table locked until 3000 ms)`;
      expect(outcome.status).toBe(201);
      expect(outcome.admittedMs).toBeLessThan(2_000);
      const [{ n }] = await instances[0].dataSource.query(`SELECT COUNT(*)::int AS n FROM pets WHERE name = 'Orphan'`);
      expect(n).toBe(1);
    } finally {
      await Promise.all([first.kill(), second.kill()]);
    }
  });

  it('refuses a revoked key within 5 seconds on the other instance', async () => {
    const [first, second] = instances;
    const key = { Authorization: `Bearer ${await first.newKey('pro')}` };
    expect((await second.http().get('/v1/pets?limit=1').set(key)).status).toBe(200);
    const keys = first.app.get(ApiKeysService);
    const [issued] = (await keys.list()).slice(-1);
    await keys.revoke(issued.id, OPERATOR);
    clock.advance(4_001);
    const refused = await second.http().get('/v1/pets?limit=1').set(key);
    expect([refused.status, refused.body.code]).toEqual([401, 'invalid_api_key']);
  });

  it('answers 503 service_unavailable while PgBouncer is stopped, and recovers when it starts again, without a restart', async () => {
    figures.animals = await animals();
    await bouncer.stop();
    const outage = [];
    for (let i = 0; i < 10; i++) {
      const instance = instances[i % 2];
      const started = Date.now();
      const res =
        i % 2 === 0
          ? await instance.http().get('/v1/pets').set(auth)
          : await instance.http().post('/v1/pets').set(auth).send({ name: 'Lost', categoryId: 1 });
      count(res);
      outage.push({ status: res.status, body: res.body, ms: Date.now() - started });
    }
    figures.outage503s = outage.filter((answer) => answer.status === 503).length;
    expect(outage).toEqual(
      Array(10).fill({
        status: 503,
        body: { code: 'service_unavailable', message: expect.any(String), status: 503 },
        ms: expect.any(Number),
      }),
    );
    expect(Math.max(...outage.map((answer) => answer.ms))).toBeLessThan(6_000);
    expect((await instances[1].http().get('/health/ready')).status).toBe(503);

    await bouncer.start();
    const restarted = Date.now();
    for (const instance of instances.slice(0, 2)) {
      while ((await instance.http().get('/v1/pets?limit=1').set(auth)).status !== 200) {
        expect(Date.now() - restarted).toBeLessThan(RECOVERY_BOUND_MS);
        await sleep(100);
      }
    }
    figures.recoveryMs = Date.now() - restarted;
    const after = count(await instances[1].http().post('/v1/pets').set(auth).send({ name: 'Back', categoryId: 1 }));
    expect(after.status).toBe(201);
    expect(await animals()).toBe(figures.animals + 1);
    figures.animals++;
  });
});
