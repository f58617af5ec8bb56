import { jest } from '@jest/globals';
import { ApiKeysService } from '../../src/modules/auth/index.js';
import { ClientsService } from '../../src/modules/plans/clients.service.js';
import { FakeClock } from '../support/fake-clock.js';
import { createTestApp, OPERATOR, type TestApp } from '../support/test-app.js';

const QUOTA_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit', 'ratelimit-policy'];
const challenge = (scope: string) => `Bearer realm="pets", error="insufficient_scope", scope="${scope}"`;

describe('API key scopes (e2e)', () => {
  let t: TestApp;
  let clientId: number;
  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

  /** A key of the test's pro client (one quota for all its keys), with `scopes`. */
  const keyWith = async (...scopes: string[]) => (await t.app.get(ApiKeysService).issue(clientId, { scopes }, OPERATOR)).key;
  const petCount = async () => Number((await t.dataSource.query('SELECT COUNT(*) AS n FROM pets'))[0].n);

  beforeAll(async () => {
    // Mid-minute, and nobody moves the clock: every request of the suite counts in one minute window. No background
    // statement (webhook delivery's polling, the usage flush) runs while a test counts the requests' statements.
    t = await createTestApp({
      clock: new FakeClock(new Date('2027-03-01T12:00:10Z')),
      env: { WEBHOOK_DELIVERY: 'false', USAGE_FLUSH_INTERVAL_MS: '600000' },
    });
    clientId = (await t.app.get(ClientsService).create('Scoped', 'pro', {}, OPERATOR)).id;
    const created = await t
      .http()
      .post('/v1/pets')
      .set(bearer(await t.newKey()))
      .send({ name: 'Rex', categoryId: 1 });
    expect(created.status).toBe(201);
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  it.each([
    ['listPets', '/v1/pets'],
    ['getPet', '/v1/pets/1'],
  ])('refuses %s to a key without pets:read: 403 insufficient_scope, the challenge and the quota headers', async (_operation, path) => {
    // A reader's answer is in the read cache: the guard runs before it, so it is not served.
    expect(
      (
        await t
          .http()
          .get(path)
          .set(bearer(await keyWith('pets:read')))
      ).status,
    ).toBe(200);
    const res = await t
      .http()
      .get(path)
      .set(bearer(await keyWith('pets:write', 'keys:manage')));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 'insufficient_scope', message: expect.stringContaining('pets:read'), status: 403 });
    expect(res.headers['www-authenticate']).toBe(challenge('pets:read'));
    for (const header of QUOTA_HEADERS) expect({ header, value: res.headers[header] }).toEqual({ header, value: expect.any(String) });
  });

  it('refuses createPet to a key without pets:write, and creates nothing', async () => {
    const before = await petCount();
    const res = await t
      .http()
      .post('/v1/pets')
      .set({ ...bearer(await keyWith('pets:read')), 'Idempotency-Key': 'scoped-out' })
      .send({ name: 'Intruder', categoryId: 1 });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 'insufficient_scope', message: expect.stringContaining('pets:write'), status: 403 });
    expect(res.headers['www-authenticate']).toBe(challenge('pets:write'));
    for (const header of QUOTA_HEADERS) expect(res.headers[header]).toEqual(expect.any(String));
    expect(await petCount()).toBe(before);
  });

  it('counts a 403 in the quota like any answered request', async () => {
    const [reader, writer] = [await keyWith('pets:read'), await keyWith('pets:write')];
    const remaining = async (key: string, expected: number) => {
      const res = await t.http().get('/v1/pets').set(bearer(key));
      expect(res.status).toBe(expected);
      return Number(res.headers['x-ratelimit-remaining']);
    };
    const first = await remaining(reader, 200);
    const refused = await remaining(writer, 403);
    const next = await remaining(reader, 200);
    expect([refused, next]).toEqual([first - 1, first - 2]);
  });

  it('lets keys with the scope through: pets:read lists and gets, pets:write creates', async () => {
    const reader = bearer(await keyWith('pets:read'));
    const writer = bearer(await keyWith('pets:write'));
    expect((await t.http().get('/v1/pets').set(reader)).status).toBe(200);
    expect((await t.http().get('/v1/pets/1').set(reader)).status).toBe(200);
    expect((await t.http().post('/v1/pets').set(writer).send({ name: 'Bella', categoryId: 2 })).status).toBe(201);
  });

  it('gives a key created without scopes pets:read and pets:write', async () => {
    const key = await t.newKey();
    expect((await t.app.get(ApiKeysService).list()).at(-1)?.scopes).toEqual(['pets:read', 'pets:write']);
    const created = await t.http().post('/v1/pets').set(bearer(key)).send({ name: 'Max', categoryId: 3 });
    expect(created.status).toBe(201);
    expect((await t.http().get(`/v1/pets/${created.body.id}`).set(bearer(key))).status).toBe(200);
    expect((await t.http().get('/v1/pets').set(bearer(key))).status).toBe(200);
  });

  it('reads the scopes with the key in its one cached lookup: no statement of their own, none at all once cached', async () => {
    const key = bearer(await keyWith('pets:write'));
    // Every statement of the app's query runners passes its data source's logger.
    const query = jest.spyOn(t.dataSource.logger, 'logQuery');
    const keyStatements = () => query.mock.calls.map(([sql]) => sql).filter((sql) => /\bapi_keys\b/.test(sql) && /^SELECT/i.test(sql));

    expect((await t.http().get('/v1/pets').set(key)).status).toBe(403);
    expect(keyStatements()).toEqual([expect.stringMatching(/"scopes"/)]);
    query.mockClear();
    for (const path of ['/v1/pets', '/v1/pets/1']) expect((await t.http().get(path).set(key)).status).toBe(403);
    expect(query).not.toHaveBeenCalled();
  });
});
