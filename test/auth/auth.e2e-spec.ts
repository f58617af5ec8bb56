import { jest } from '@jest/globals';
import { ApiKeysRepository } from '../../src/modules/auth/api-keys.repository.js';
import { ApiKeysService } from '../../src/modules/auth/api-keys.service.js';
import { ClientsService } from '../../src/modules/plans/clients.service.js';
import { FakeClock } from '../support/fake-clock.js';
import { eventually } from '../support/eventually.js';
import { createTestApp, OPERATOR, type TestApp } from '../support/test-app.js';

const challenge = 'Bearer realm="pets"';

describe('API key authentication (e2e)', () => {
  let t: TestApp;
  let clock: FakeClock;
  let key: string;

  const get = (authorization?: string) => {
    const req = t.http().get('/v1/pets');
    return authorization === undefined ? req : req.set('Authorization', authorization);
  };

  beforeAll(async () => {
    clock = new FakeClock();
    t = await createTestApp({ clock });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    key = await t.newKey();
  });
  afterEach(() => jest.restoreAllMocks());

  it('admits a live key, with the scheme in any case and several spaces', async () => {
    expect((await get(`Bearer ${key}`)).status).toBe(200);
    expect((await get(`bearer    ${key}`)).status).toBe(200);
    expect((await get(`BEARER ${key}`)).status).toBe(200);
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['Bearer without a token', 'Bearer'],
    ['Bearer with blanks only', 'Bearer    '],
    ['a token of two words', 'Bearer abc def'],
  ])('answers %s with 401 missing_api_key and a challenge', async (_case, header) => {
    const res = await get(header);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'missing_api_key', message: expect.any(String), status: 401 });
    expect(res.headers['www-authenticate']).toBe(challenge);
  });

  it('refuses a key with a wrong checksum without touching the database', async () => {
    const lookup = jest.spyOn(t.app.get(ApiKeysRepository), 'findUnrevokedByHash');
    const last = key.at(-1) === 'A' ? 'B' : 'A';
    const res = await get(`Bearer ${key.slice(0, -1)}${last}`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_api_key');
    expect(res.headers['www-authenticate']).toBe(challenge);
    expect(lookup).not.toHaveBeenCalled();
  });

  it('refuses a well-formed key that was never issued', async () => {
    const other = await createTestApp();
    const foreign = await other.newKey();
    await other.close();
    const res = await get(`Bearer ${foreign}`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_api_key');
  });

  it('stores only the SHA-256 of a key and its display prefix', async () => {
    const rows: Array<Record<string, unknown>> = await t.dataSource.query('SELECT * FROM api_keys');
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(key);
    expect(rows.map((r) => r.prefix)).toContain(key.slice(0, 13));
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(String(r.key_hash)))).toBe(true);
  });

  it('keeps the database off the hot path: one lookup per key per cache period', async () => {
    const lookup = jest.spyOn(t.app.get(ApiKeysRepository), 'findUnrevokedByHash');
    for (let i = 0; i < 5; i++) expect((await get(`Bearer ${key}`)).status).toBe(200);
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('refuses a revoked key within 5 seconds of the revocation', async () => {
    expect((await get(`Bearer ${key}`)).status).toBe(200);
    const [issued] = (await t.app.get(ApiKeysService).list()).slice(-1);
    expect(await t.app.get(ApiKeysService).revoke(issued.id, OPERATOR)).toBe('revoked');
    clock.advance(4_001);
    const res = await get(`Bearer ${key}`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_api_key');
  });

  it('does the same work for a revoked key as for one never issued: the same repository calls, the same answers', async () => {
    const repository = t.app.get(ApiKeysRepository);
    const methods = Object.getOwnPropertyNames(ApiKeysRepository.prototype).filter((name) => name !== 'constructor');
    const workFor = async (token: string) => {
      const spies = methods.map((name) => jest.spyOn(repository, name as keyof ApiKeysRepository));
      const res = await get(`Bearer ${token}`);
      const calls = [];
      for (const [i, spy] of spies.entries())
        for (const result of spy.mock.results) calls.push({ method: methods[i], answer: await (result.value as Promise<unknown>) });
      jest.restoreAllMocks();
      return { status: res.status, code: res.body.code, calls };
    };
    const revoked = key;
    const [issued] = (await t.app.get(ApiKeysService).list()).slice(-1);
    await t.app.get(ApiKeysService).revoke(issued.id, OPERATOR);
    const other = await createTestApp();
    const neverIssued = await other.newKey();
    await other.close();
    const revokedWork = await workFor(revoked);
    expect(revokedWork).toEqual({ status: 401, code: 'invalid_api_key', calls: [{ method: 'findUnrevokedByHash', answer: null }] });
    expect(await workFor(neverIssued)).toEqual(revokedWork);
  });

  it('refuses an expired key', async () => {
    const client = await t.app.get(ClientsService).create('Expiring', 'pro', {}, OPERATOR);
    const { key: shortLived } = await t.app
      .get(ApiKeysService)
      .issue(client.id, { expiresAt: new Date(clock.now().getTime() + 60_000) }, OPERATOR);
    expect((await get(`Bearer ${shortLived}`)).status).toBe(200);
    clock.advance(60_000);
    expect((await get(`Bearer ${shortLived}`)).body.code).toBe('invalid_api_key');
  });

  it('writes lastUsedAt at most once a minute per key', async () => {
    const record = jest.spyOn(t.app.get(ApiKeysRepository), 'recordUse');
    for (let i = 0; i < 5; i++) await get(`Bearer ${key}`);
    expect(record).toHaveBeenCalledTimes(1);
    clock.advance(30_000);
    await get(`Bearer ${key}`);
    expect(record).toHaveBeenCalledTimes(1);
    clock.advance(31_000);
    await get(`Bearer ${key}`);
    expect(record).toHaveBeenCalledTimes(2);
    const lastUsed = () =>
      t.dataSource.query<Array<{ last_used_at: Date | null }>>('SELECT last_used_at FROM api_keys WHERE prefix = $1', [key.slice(0, 13)]);
    const [{ last_used_at }] = await eventually(lastUsed, ([row]) => row.last_used_at !== null);
    expect(last_used_at).not.toBeNull();
  });

  it('lets two keys of one client both in', async () => {
    const client = await t.app.get(ClientsService).create('Two keys', 'business', {}, OPERATOR);
    const keys = t.app.get(ApiKeysService);
    const [a, b] = [(await keys.issue(client.id, {}, OPERATOR)).key, (await keys.issue(client.id, {}, OPERATOR)).key];
    expect((await get(`Bearer ${a}`)).status).toBe(200);
    expect((await get(`Bearer ${b}`)).status).toBe(200);
  });

  it.each(['/health/live', '/health/ready', '/docs', '/docs-json', '/docs-yaml'])('serves %s without a key', async (path) => {
    const res = await t.http().get(path);
    expect(res.status).toBe(200);
  });

  it('protects every /v1 operation', async () => {
    for (const res of [await t.http().post('/v1/pets').send({ name: 'Rex', categoryId: 1 }), await t.http().get('/v1/pets/1')]) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('missing_api_key');
    }
  });
});
