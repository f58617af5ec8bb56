import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { IdempotencyKeysRepository } from '../../src/policies/idempotency/idempotency-keys.repository.js';
import { holdNextCreation } from '../support/held-creation.js';
import { sendIdenticalCreations } from '../support/identical-creations.js';
import { killMidCreation, postPet, retryWhileConflicting } from '../support/killed-creation.js';
import { emptyDatabase } from '../support/test-databases.js';
import { freePort, ServiceProcess } from '../support/service-process.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Idempotency on the real PostgreSQL named by DATABASE_URL, with several instances on one
 * database: in process for the races, and replicas of the built service (dist/) killed with
 * SIGKILL for the crashes. An unreachable database fails the suite.
 */
/** A database of this suite's own (test/support/test-databases.ts). */
const DATABASE_URL = await emptyDatabase();
const OUTCOME_BOUND_MS = 2_000;

describe('Idempotency-Key on PostgreSQL, two instances on one database (integration)', () => {
  let a: TestApp;
  let b: TestApp;
  let auth: { Authorization: string };
  const create = (app: TestApp, idempotencyKey: string, body: object) =>
    app.http().post('/v1/pets').set(auth).set('Idempotency-Key', idempotencyKey).send(body);
  const animalsNamed = async (name: string) =>
    Number((await a.dataSource.query('SELECT COUNT(*)::int AS n FROM pets WHERE name = $1', [name]))[0].n);

  beforeAll(async () => {
    a = await createTestApp({ env: { DATABASE_URL } });
    b = await createTestApp({ env: { DATABASE_URL, DATABASE_MIGRATIONS_RUN: 'false' } });
    auth = { Authorization: `Bearer ${await a.newKey()}` };
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });
  afterEach(() => jest.restoreAllMocks());

  it('creates exactly one animal from 20 concurrent identical requests spread over both instances', async () => {
    const headers = { ...auth, 'Idempotency-Key': `burst-${randomUUID()}` };
    const responses = await sendIdenticalCreations([a, b], { headers, body: { name: 'Twin', categoryId: 2 }, count: 20 });
    console.log(
      `20 identical requests over 2 instances: ${responses.filter((res) => res.status === 201).length} × 201, the rest 409; 1 animal`,
    );
    expect(await animalsNamed('Twin')).toBe(1);
  });

  it('replays on one instance what the other created (status, body, Location); another body gets 422 there', async () => {
    const key = `replay-${randomUUID()}`;
    const first = await create(a, key, { name: 'Rex', categoryId: 1 });
    expect(first.status).toBe(201);
    const retry = await create(b, key, { categoryId: 1, name: 'Rex' });
    expect([retry.status, retry.text, retry.headers.location]).toEqual([201, first.text, first.headers.location]);
    const reused = await create(b, key, { name: 'Max', categoryId: 1 });
    expect(reused.body).toEqual({ code: 'idempotency_key_reused', message: expect.any(String), status: 422 });
    expect(await animalsNamed('Rex')).toBe(1);
  });

  it('while the first runs on one instance: the same body gets 409 on the other, another body 422; once it answered, its replay', async () => {
    const key = `running-${randomUUID()}`;
    const { entered, release } = holdNextCreation(a.app);
    const first = create(a, key, { name: 'Slow', categoryId: 1 }).then((res) => res);
    await entered;
    const conflict = await create(b, key, { name: 'Slow', categoryId: 1 });
    expect(conflict.body).toEqual({ code: 'idempotency_conflict', message: expect.any(String), status: 409 });
    expect((await create(b, key, { name: 'Other', categoryId: 1 })).status).toBe(422);
    release();
    const done = await first;
    expect(done.status).toBe(201);
    expect((await create(b, key, { name: 'Slow', categoryId: 1 })).text).toBe(done.text);
    expect((await animalsNamed('Slow')) + (await animalsNamed('Other'))).toBe(1);
  });

  it('stores no error: after a 400, and after a 500 whose record failed (its animal rolled back with it), the key creates once', async () => {
    const key = `error-${randomUUID()}`;
    expect((await create(a, key, { name: '', categoryId: 1 })).status).toBe(400);
    jest.spyOn(IdempotencyKeysRepository.prototype, 'record').mockRejectedValueOnce(new Error('disk full'));
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    expect((await create(a, key, { name: 'Fixed', categoryId: 1 })).status).toBe(500);
    expect(await animalsNamed('Fixed')).toBe(0);
    const created = await create(b, key, { name: 'Fixed', categoryId: 1 });
    expect(created.status).toBe(201);
    expect((await create(a, key, { name: 'Fixed', categoryId: 1 })).text).toBe(created.text);
    expect(await animalsNamed('Fixed')).toBe(1);
  });

  describe('replicas of the built service killed with SIGKILL', () => {
    const replicas: ServiceProcess[] = [];
    let headers: Record<string, string>;
    const replica = async (databaseUrl = DATABASE_URL) => {
      const started = new ServiceProcess(await freePort(), {
        DATABASE_URL: databaseUrl,
        DATABASE_MIGRATIONS_RUN: 'false',
        LOG_LEVEL: 'warn',
      });
      replicas.push(started);
      await started.start();
      return started;
    };

    beforeAll(() => {
      headers = { ...auth };
    });
    afterAll(async () => {
      await Promise.all(replicas.map((started) => started.kill()));
    });

    it('frees the key of a replica killed mid-INSERT: within 2 s the retry on another replica gets through and creates; one animal', async () => {
      const [first, second] = [await replica(), await replica()];
      const request = { headers: { ...headers, 'Idempotency-Key': `killed-${randomUUID()}` }, body: { name: 'Orphan', categoryId: 1 } };
      // The table stays locked past the bound: only PostgreSQL's check of the dead client can end the backend sooner.
      const outcome = await killMidCreation({ first, second, databaseUrl: DATABASE_URL, request, lockHeldMs: 3_000 });
      console.log(
        `replica killed mid-INSERT (table locked until 3000 ms after the kill): PostgreSQL ended its backend after ${Math.round(outcome.backendEndedMs)} ms; ` +
          `the retry on the other replica: last 409 at ${outcome.last409Ms === undefined ? 'none' : Math.round(outcome.last409Ms)} ms, ` +
          `got through at ${Math.round(outcome.admittedMs)} ms, answered ${outcome.status} at ${Math.round(outcome.answeredMs)} ms (after the unlock)`,
      );
      expect(outcome.status).toBe(201);
      expect(outcome.admittedMs).toBeLessThan(OUTCOME_BOUND_MS);
      expect(await animalsNamed('Orphan')).toBe(1);
      expect((await postPet(second, request)).status).toBe(201);
      expect(await animalsNamed('Orphan')).toBe(1);
    });

    it('a replica killed after its COMMIT, before it answered: the retry on another replica gets the committed 201 at once', async () => {
      const target = new URL(DATABASE_URL);
      const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
      await proxy.start();
      try {
        const viaProxy = new URL(DATABASE_URL);
        viaProxy.host = `127.0.0.1:${proxy.port}`;
        const [first, second] = [await replica(viaProxy.toString()), await replica()];
        const request = {
          headers: { ...headers, 'Idempotency-Key': `committed-${randomUUID()}` },
          body: { name: 'Unanswered', categoryId: 1 },
        };
        const committed = proxy.holdRepliesAfter('COMMIT');
        void postPet(first, request).catch(() => undefined);
        await committed;
        await first.kill();
        const killed = performance.now();
        const retry = await retryWhileConflicting(second, request, killed);
        const [row] = await a.dataSource.query(`SELECT id FROM pets WHERE name = 'Unanswered'`);
        console.log(
          `replica killed after its COMMIT: the retry on the other replica answered ${retry.status} with the committed id after ${Math.round(retry.answeredMs)} ms` +
            ` (last 409 at ${retry.last409Ms === undefined ? 'none' : Math.round(retry.last409Ms)} ms)`,
        );
        expect([retry.status, retry.body.id]).toEqual([201, Number(row.id)]);
        expect(retry.answeredMs).toBeLessThan(OUTCOME_BOUND_MS);
        expect(await animalsNamed('Unanswered')).toBe(1);
      } finally {
        await proxy.cut();
      }
    });
  });
});
