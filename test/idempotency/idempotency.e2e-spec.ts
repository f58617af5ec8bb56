import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { ApiKeysService } from '../../src/modules/auth/api-keys.service.js';
import { ExpiredKeysPurge, IdempotencyKeysRepository } from '../../src/policies/idempotency/idempotency-keys.repository.js';
import { PetsRepository } from '../../src/modules/pets/pets.repository.js';
import { ClientsService } from '../../src/modules/plans/clients.service.js';
import { FakeClock } from '../support/fake-clock.js';
import { sendIdenticalCreations } from '../support/identical-creations.js';
import { holdNextCreation } from '../support/held-creation.js';
import { createTestApp, OPERATOR, type TestApp } from '../support/test-app.js';

const DAY_MS = 24 * 60 * 60_000;

describe('Idempotency-Key on POST /v1/pets (e2e)', () => {
  let t: TestApp;
  let clock: FakeClock;
  let auth: { Authorization: string };
  let clientId: number;
  let seq = 0;

  /** A fresh Idempotency-Key per test, so tests sharing the app do not meet. */
  const newIdempotencyKey = () => `e2e-key-${++seq}-${Date.now()}`;
  const create = (body: object | string, idempotencyKey?: string, authorization = auth) => {
    const req = t.http().post('/v1/pets').set(authorization).set('Content-Type', 'application/json');
    if (idempotencyKey !== undefined) req.set('Idempotency-Key', idempotencyKey);
    return req.send(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const petCount = async () => Number((await t.dataSource.query('SELECT COUNT(*) AS n FROM pets'))[0].n);

  beforeAll(async () => {
    clock = new FakeClock();
    t = await createTestApp({ clock });
    auth = { Authorization: `Bearer ${await t.newKey()}` };
    clientId = (await t.app.get(ClientsService).list()).at(-1)!.id;
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  it('replays the first 201 (same body, same Location) to a retry and creates nothing more', async () => {
    const key = newIdempotencyKey();
    const before = await petCount();
    const create$ = jest.spyOn(t.app.get(PetsRepository), 'create');
    const first = await create({ name: 'Rex', categoryId: 1 }, key);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ id: expect.any(Number), name: 'Rex', categoryId: 1, status: 'available' });
    expect(first.headers.location).toMatch(new RegExp(`/v1/pets/${first.body.id}$`));

    for (let i = 0; i < 3; i++) {
      const retry = await create({ name: 'Rex', categoryId: 1 }, key);
      expect(retry.status).toBe(201);
      expect(retry.text).toBe(first.text);
      expect(retry.headers.location).toBe(first.headers.location);
      expect(retry.headers['content-type']).toMatch(/^application\/json/);
    }
    expect(create$).toHaveBeenCalledTimes(1);
    expect(await petCount()).toBe(before + 1);
  });

  it('treats a body with other key order and white space as the same body', async () => {
    const key = newIdempotencyKey();
    const before = await petCount();
    const first = await create('{"name":"Bella","categoryId":2,"status":"pending"}', key);
    expect(first.status).toBe(201);
    const retry = await create('{\n  "status" : "pending",\n\t"categoryId": 2.0,  "name": "Bella"\n}\n', key);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.location).toBe(first.headers.location);
    expect(await petCount()).toBe(before + 1);
  });

  it('answers the same key with a different body with 422 idempotency_key_reused and creates nothing', async () => {
    const key = newIdempotencyKey();
    expect((await create({ name: 'Rex', categoryId: 1 }, key)).status).toBe(201);
    const before = await petCount();
    for (const body of [{ name: 'Max', categoryId: 1 }, { name: 'Rex', categoryId: 1, status: 'available' }, {}]) {
      const res = await create(body, key);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ code: 'idempotency_key_reused', message: expect.any(String), status: 422 });
      expect(res.headers['x-ratelimit-limit']).toBeDefined();
    }
    expect(await petCount()).toBe(before);
  });

  it('answers a retry while the first request is still running with 409 idempotency_conflict, then replays', async () => {
    const key = newIdempotencyKey();
    const before = await petCount();
    const { entered: handlerEntered, release } = holdNextCreation(t.app);

    const first = create({ name: 'Slow', categoryId: 1 }, key).then((res) => res);
    await handlerEntered;
    const concurrent = await create({ name: 'Slow', categoryId: 1 }, key);
    expect(concurrent.status).toBe(409);
    expect(concurrent.body).toEqual({ code: 'idempotency_conflict', message: expect.any(String), status: 409 });
    // A different body is a mistake whatever the state of the first: 422, not "retry later".
    expect((await create({ name: 'Other', categoryId: 1 }, key)).status).toBe(422);

    release();
    const done = await first;
    expect(done.status).toBe(201);
    const retry = await create({ name: 'Slow', categoryId: 1 }, key);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(done.body);
    expect(await petCount()).toBe(before + 1);
  });

  it('creates once among 10 concurrent identical requests: the others answer 409 or the replay', async () => {
    const key = newIdempotencyKey();
    const before = await petCount();
    await sendIdenticalCreations([t], { headers: { ...auth, 'Idempotency-Key': key }, body: { name: 'Twin', categoryId: 2 }, count: 10 });
    expect(await petCount()).toBe(before + 1);
  });

  it('purges expired keys from the database, and only those', async () => {
    const [old, recent] = [newIdempotencyKey(), newIdempotencyKey()];
    await create({ name: 'Old', categoryId: 1 }, old);
    clock.advance(DAY_MS / 2);
    await create({ name: 'Recent', categoryId: 1 }, recent);
    const rows = async () => Number((await t.dataSource.query('SELECT COUNT(*) AS n FROM idempotency_keys'))[0].n);
    const before = await rows();
    clock.advance(DAY_MS / 2);
    expect(await t.app.get(ExpiredKeysPurge).run()).toBeGreaterThanOrEqual(1);
    expect(await rows()).toBeLessThan(before);
    // The recent key still replays its first response: nothing that has not expired was purged.
    const before2 = await petCount();
    expect((await create({ name: 'Recent', categoryId: 1 }, recent)).status).toBe(201);
    expect(await petCount()).toBe(before2);
  });

  it('replays for 24 hours, then treats the key as new', async () => {
    const key = newIdempotencyKey();
    const first = await create({ name: 'Rex', categoryId: 1 }, key);
    expect(first.status).toBe(201);
    clock.advance(DAY_MS - 1_000);
    const within = await create({ name: 'Rex', categoryId: 1 }, key);
    expect(within.body).toEqual(first.body);
    const before = await petCount();
    clock.advance(1_000);
    const after = await create({ name: 'Rex', categoryId: 1 }, key);
    expect(after.status).toBe(201);
    expect(after.body.id).not.toBe(first.body.id);
    expect(await petCount()).toBe(before + 1);
    // The new response is the one replayed now.
    expect((await create({ name: 'Rex', categoryId: 1 }, key)).body).toEqual(after.body);
  });

  it('stores no error: after a 400 the same key with a corrected body creates the animal', async () => {
    const key = newIdempotencyKey();
    const before = await petCount();
    const bad = await create({ name: '', categoryId: 1 }, key);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
    const good = await create({ name: 'Rex', categoryId: 1 }, key);
    expect(good.status).toBe(201);
    expect((await create({ name: 'Rex', categoryId: 1 }, key)).body).toEqual(good.body);
    expect(await petCount()).toBe(before + 1);
  });

  it('stores no unexpected failure either: after a 500 the same key creates the animal', async () => {
    const key = newIdempotencyKey();
    jest.spyOn(t.app.get(PetsRepository), 'create').mockRejectedValueOnce(new Error('boom'));
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    expect((await create({ name: 'Rex', categoryId: 1 }, key)).status).toBe(500);
    expect((await create({ name: 'Rex', categoryId: 1 }, key)).status).toBe(201);
  });

  it("records the 201 in the creation's transaction: a record that fails answers 500 and rolls its animal back, so the retry creates one", async () => {
    const key = newIdempotencyKey();
    const before = await petCount();
    jest.spyOn(IdempotencyKeysRepository.prototype, 'record').mockRejectedValueOnce(new Error('disk full'));
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    expect((await create({ name: 'Unrecorded', categoryId: 1 }, key)).status).toBe(500);
    expect(await petCount()).toBe(before);
    expect((await create({ name: 'Unrecorded', categoryId: 1 }, key)).status).toBe(201);
    expect(await petCount()).toBe(before + 1);
  });

  it('keys per client: the same key from another client is independent, from another key of the same client it replays', async () => {
    const key = newIdempotencyKey();
    const first = await create({ name: 'Rex', categoryId: 1 }, key);
    const otherClient = { Authorization: `Bearer ${await t.newKey()}` };
    const other = await create({ name: 'Max', categoryId: 3 }, key, otherClient);
    expect(other.status).toBe(201);
    expect(other.body).toMatchObject({ name: 'Max', categoryId: 3 });

    const rotated = { Authorization: `Bearer ${(await t.app.get(ApiKeysService).issue(clientId, {}, OPERATOR)).key}` };
    const replay = await create({ name: 'Rex', categoryId: 1 }, key, rotated);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a tab', 'abc\tdef'],
    ['a non-ASCII character', 'caf\u00e9'],
  ])('refuses an Idempotency-Key that is %s with 400 validation_failed and creates nothing', async (_case, key) => {
    const before = await petCount();
    const res = await create({ name: 'Rex', categoryId: 1 }, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'validation_failed',
      message: expect.any(String),
      status: 400,
      details: [{ field: 'Idempotency-Key', message: expect.any(String) }],
    });
    expect(await petCount()).toBe(before);
  });

  it('accepts 1 to 255 printable ASCII characters, spaces and symbols included', async () => {
    for (const key of ['k', `~ !"#$%&'()*+,-./:;<=>?@[\\]^_\`{|}${newIdempotencyKey()}`, 'x'.repeat(255)]) {
      const first = await create({ name: 'Rex', categoryId: 1 }, key);
      expect(first.status).toBe(201);
      expect((await create({ name: 'Rex', categoryId: 1 }, key)).body).toEqual(first.body);
    }
  });

  it('never stores the header itself, only its SHA-256', async () => {
    const key = `secret-looking-${newIdempotencyKey()}`;
    expect((await create({ name: 'Rex', categoryId: 1 }, key)).status).toBe(201);
    const rows: Array<Record<string, unknown>> = await t.dataSource.query('SELECT * FROM idempotency_keys');
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(rows.map((row) => row.key_hash)).toContainEqual(expect.stringMatching(/^[0-9a-f]{64}$/));
  });

  it('changes nothing without the header: each request creates an animal', async () => {
    const before = await petCount();
    const a = await create({ name: 'Rex', categoryId: 1 });
    const b = await create({ name: 'Rex', categoryId: 1 });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).not.toBe(b.body.id);
    expect(await petCount()).toBe(before + 2);
  });
});
