import { setTimeout as sleep } from 'node:timers/promises';
import { jest } from '@jest/globals';
import { ApiKeysRepository } from '../../src/modules/auth/api-keys.repository.js';
import { ApiKeysService } from '../../src/modules/auth/index.js';
import { ClientsService } from '../../src/modules/plans/clients.service.js';
import { emptyDatabase } from '../support/test-databases.js';
import { createTestApp, OPERATOR, type TestApp } from '../support/test-app.js';

/**
 * Self-service keys on the real PostgreSQL named by DATABASE_URL, two instances A and B on one
 * database, each with its own key lookup cache: what A changes, B enforces within the 5-second bound.
 */
/** A database of this suite's own (test/support/test-databases.ts). */
const DATABASE_URL = await emptyDatabase();
const REPLICA_BOUND_MS = 5_000;
const POLL_MS = 100;

describe('Self-service keys on PostgreSQL, two instances on one database (integration)', () => {
  let a: TestApp;
  let b: TestApp;
  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

  /** A client and a keys:manage key of it, made on A. */
  const newClient = async () => {
    const client = await a.app
      .get(ClientsService)
      .create('Rotating', 'enterprise', { perMinute: 1_000_000, perDay: 100_000_000 }, OPERATOR);
    const { key } = await a.app.get(ApiKeysService).issue(client.id, { scopes: ['pets:read', 'pets:write', 'keys:manage'] }, OPERATOR);
    return key;
  };
  const createOn = (app: TestApp, manager: string, name: string) => app.http().post('/v1/keys').set(bearer(manager)).send({ name });

  /** Polls B with `key` until it answers 401; returns each status with the time it was answered. */
  const pollUntilRefused = async (key: string, deadline: number) => {
    const answers: { at: number; status: number; message?: string }[] = [];
    while (Date.now() < deadline) {
      const res = await b.http().get('/v1/pets').set(bearer(key));
      answers.push({ at: Date.now(), status: res.status, message: res.body.message });
      if (res.status === 401) break;
      await sleep(POLL_MS);
    }
    return answers;
  };

  beforeAll(async () => {
    const env = { DATABASE_URL, REDIS_URL: process.env.REDIS_URL ?? '' };
    a = await createTestApp({ env });
    b = await createTestApp({ env: { ...env, DATABASE_MIGRATIONS_RUN: 'false' } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('rolled on A, the old key works on B for the overlap and is refused "expired" within the bound after it', async () => {
    const manager = await newClient();
    const old = (await createOn(a, manager, 'ci')).body as { id: number; key: string };
    // B has the old key in its lookup cache when A rolls it.
    expect((await b.http().get('/v1/pets').set(bearer(old.key))).status).toBe(200);
    const rolled = await a.http().post(`/v1/keys/${old.id}/roll`).set(bearer(manager)).send({ overlapSeconds: 2 });
    expect(rolled.status).toBe(201);
    const expiresAt = Date.parse(
      (await a.http().get('/v1/keys').set(bearer(manager))).body.find((k: { id: number }) => k.id === old.id).expiresAt,
    );

    const answers = await pollUntilRefused(old.key, expiresAt + REPLICA_BOUND_MS + 2_000);
    const refused = answers.at(-1)!;
    console.log(`Rolled with a 2 s overlap on A: B refused the old key ${refused.at - expiresAt} ms after its expiry`);
    expect(answers.filter(({ at }) => at < expiresAt).every(({ status }) => status === 200)).toBe(true);
    expect(answers.some(({ at, status }) => status === 200 && at >= expiresAt - 1_000)).toBe(true);
    expect([refused.status, refused.message]).toEqual([401, 'expired']);
    expect(refused.at).toBeGreaterThanOrEqual(expiresAt);
    expect(refused.at - expiresAt).toBeLessThanOrEqual(REPLICA_BOUND_MS);
    expect((await b.http().get('/v1/pets').set(bearer(rolled.body.key))).status).toBe(200);
  }, 20_000);

  it('revoked on A, a key B has just served is refused by B within the bound', async () => {
    const manager = await newClient();
    const doomed = (await createOn(a, manager, 'doomed')).body as { id: number; key: string };
    expect((await b.http().get('/v1/pets').set(bearer(doomed.key))).status).toBe(200);
    const revokedAt = Date.now();
    expect((await a.http().delete(`/v1/keys/${doomed.id}`).set(bearer(manager))).status).toBe(204);

    const refused = (await pollUntilRefused(doomed.key, revokedAt + REPLICA_BOUND_MS + 2_000)).at(-1)!;
    console.log(`Revoked on A: B refused the key ${refused.at - revokedAt} ms later`);
    expect(refused.status).toBe(401);
    expect(refused.at - revokedAt).toBeLessThanOrEqual(REPLICA_BOUND_MS);
  }, 20_000);

  it('replays on B the new key A created under an Idempotency-Key, sealed: the row holds no key, another API key gets 422', async () => {
    const manager = await newClient();
    const post = (app: TestApp, key: string) =>
      app.http().post('/v1/keys').set(bearer(key)).set('Idempotency-Key', 'sealed-on-pg').send({ name: 'sealed' });
    const first = await post(a, manager);
    expect(first.status).toBe(201);
    const again = await post(b, manager);
    expect([again.status, again.text, again.headers.location]).toEqual([201, first.text, first.headers.location]);
    const rows: Array<Record<string, unknown>> = await a.dataSource.query('SELECT * FROM idempotency_keys');
    const stored = rows.flatMap((row) => Object.values(row).map(String)).join('\n');
    expect(stored).not.toContain(first.body.key);
    expect(stored).not.toContain(first.text);

    const clientId = rows.find((row) => String(row.response_body).startsWith('v1.'))!.client_id;
    const colleague = (await a.app.get(ApiKeysService).issue(Number(clientId), { scopes: ['keys:manage'] }, OPERATOR)).key;
    const live = (await a.http().get('/v1/keys').set(bearer(manager))).body.length;
    const refused = await post(b, colleague);
    expect([refused.status, refused.body.code]).toEqual([422, 'idempotency_key_reused']);
    expect((await a.http().get('/v1/keys').set(bearer(manager))).body).toHaveLength(live);
  });

  it('admits exactly 20 live keys from 30 concurrent creations spread over both instances', async () => {
    const manager = await newClient();
    const responses = await Promise.all(Array.from({ length: 30 }, (_, n) => createOn(n % 2 ? b : a, manager, `burst ${n}`)));
    const statuses = responses.map((res) => res.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(19);
    expect(statuses.filter((status) => status === 409)).toHaveLength(11);
    expect((await a.http().get('/v1/keys').set(bearer(manager))).body).toHaveLength(20);
  }, 20_000);

  it('keeps lastUsedAt to the minute under load: 2,000 requests on 10 keys over both instances, at most one write per key and instance', async () => {
    const manager = await newClient();
    const keys: string[] = [];
    for (let n = 0; n < 10; n++) keys.push(((await createOn(a, manager, `busy ${n}`)).body as { key: string }).key);
    const writes = [a, b].map((app) => jest.spyOn(app.app.get(ApiKeysRepository), 'recordUse'));
    const started = Date.now();
    for (let round = 0; round < 20; round++) {
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, n) =>
          ((n + round) % 2 ? a : b)
            .http()
            .get('/v1/pets')
            .set(bearer(keys[n % keys.length])),
        ),
      );
      expect(answers.every((res) => res.status === 200)).toBe(true);
    }
    const seconds = (Date.now() - started) / 1000;
    const [onA, onB] = writes.map((spy) => spy.mock.calls.length);
    console.log(`lastUsedAt: 2,000 requests on 10 keys over two instances in ${seconds.toFixed(1)} s: ${onA} + ${onB} UPDATEs`);
    expect([onA, onB]).toEqual([keys.length, keys.length]);
    const listed = (await a.http().get('/v1/keys').set(bearer(manager))).body as Array<{ name: string; lastUsedAt: string | null }>;
    expect(listed.filter((key) => key.name.startsWith('busy') && key.lastUsedAt !== null)).toHaveLength(keys.length);
  }, 60_000);

  it("takes as long to answer another client's key id as an unknown one: the medians differ by less than the spread", async () => {
    const mine = await newClient();
    const theirs = ((await createOn(a, await newClient(), 'theirs')).body as { id: number }).id;
    const unknown = theirs + 1_000_000;
    const timed = async (id: number) => {
      const started = process.hrtime.bigint();
      const res = await a.http().delete(`/v1/keys/${id}`).set(bearer(mine));
      expect(res.status).toBe(404);
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const [other, none]: number[][] = [[], []];
    // Interleaved, so whatever else the machine does falls on both alike.
    for (let n = 0; n < 300; n++) {
      other.push(await timed(theirs));
      none.push(await timed(unknown));
    }
    const quantile = (values: number[], q: number) => [...values].sort((x, y) => x - y)[Math.floor(q * (values.length - 1))];
    const pooled = [...other, ...none];
    const spread = quantile(pooled, 0.75) - quantile(pooled, 0.25);
    const gap = Math.abs(quantile(other, 0.5) - quantile(none, 0.5));
    console.log(
      `404 timing: another client's id ${quantile(other, 0.5).toFixed(2)} ms, unknown ${quantile(none, 0.5).toFixed(2)} ms (medians), interquartile range ${spread.toFixed(2)} ms`,
    );
    expect(gap).toBeLessThan(spread);
  }, 60_000);
});
