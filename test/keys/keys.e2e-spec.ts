import { createHash } from 'node:crypto';
import { ApiKeysService } from '../../src/modules/auth/index.js';
import { ClientsService } from '../../src/modules/plans/clients.service.js';
import { FakeClock } from '../support/fake-clock.js';
import { eventually } from '../support/eventually.js';
import { createTestApp, OPERATOR, type TestApp } from '../support/test-app.js';

const MANAGER: string[] = ['pets:read', 'pets:write', 'keys:manage'];
const UNREACHED = { perMinute: 1_000_000, perDay: 100_000_000 };
const KEY_FIELDS = ['createdAt', 'expiresAt', 'id', 'lastUsedAt', 'name', 'prefix', 'scopes'];
/** Headers that differ between any two responses, whatever they answer. */
const PER_REQUEST = ['x-request-id', 'date', 'etag', 'x-ratelimit-remaining', 'ratelimit'];

describe('Self-service keys (e2e)', () => {
  const clock = new FakeClock(new Date('2027-03-01T12:00:10Z'));
  let t: TestApp;
  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

  /** A new enterprise client (no quota reached) and a key of it with `scopes`. */
  const newClient = async (scopes: string[] = MANAGER) => {
    const client = await t.app.get(ClientsService).create('Self-service', 'enterprise', UNREACHED, OPERATOR);
    const { key, apiKey } = await t.app.get(ApiKeysService).issue(client.id, { name: 'root', scopes }, OPERATOR);
    return { clientId: client.id, key, id: apiKey.id };
  };
  const create = (key: string, body: object, headers: Record<string, string> = {}) =>
    t.http().post('/v1/keys').set(bearer(key)).set(headers).send(body);
  const list = (key: string) => t.http().get('/v1/keys').set(bearer(key));
  const petsWith = (key: string) => t.http().get('/v1/pets').set(bearer(key));

  beforeAll(async () => {
    t = await createTestApp({ clock });
  });
  afterAll(() => t.close());

  it('creates a key shown once, then lists it without the key or its hash', async () => {
    const { key } = await newClient();
    const res = await create(key, { name: 'deploy', scopes: ['pets:read'], expiresInSeconds: 3600 });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([...KEY_FIELDS, 'key'].sort());
    expect(res.body).toMatchObject({
      name: 'deploy',
      scopes: ['pets:read'],
      expiresAt: new Date(clock.now().getTime() + 3_600_000).toISOString(),
      lastUsedAt: null,
      prefix: res.body.key.slice(0, res.body.prefix.length),
    });
    expect(res.headers.location).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/v1/keys/${res.body.id}$`));
    expect((await petsWith(res.body.key)).status).toBe(200);

    const listed = await eventually(
      () => list(key),
      (answer) => answer.body[1]?.lastUsedAt !== null,
    );
    expect(listed.status).toBe(200);
    const { key: secret, ...shown } = res.body;
    expect(listed.body).toEqual([expect.objectContaining({ name: 'root' }), { ...shown, lastUsedAt: expect.any(String) }]);
    const hash = createHash('sha256').update(secret).digest('hex');
    expect(listed.text).not.toContain(secret);
    expect(listed.text).not.toContain(hash);
  });

  it('defaults scopes to pets:read pets:write and shows lastUsedAt to the minute', async () => {
    const { key } = await newClient();
    clock.set('2027-03-01T12:00:40Z');
    const res = await create(key, { name: 'plain' });
    expect([res.status, res.body.scopes, res.body.expiresAt]).toEqual([201, ['pets:read', 'pets:write'], null]);
    // Written off the request's path: the list sees it once that write commits.
    const lastUsedAt = await eventually(
      async () => (await list(key)).body[0].lastUsedAt as string | null,
      (value) => value !== null,
    );
    expect(lastUsedAt).toBe('2027-03-01T12:00:00.000Z');
  });

  it('lists only live keys: neither revoked nor expired', async () => {
    const { key } = await newClient();
    const short = await create(key, { name: 'short', expiresInSeconds: 10 });
    const revoked = await create(key, { name: 'revoked' });
    expect((await t.http().delete(`/v1/keys/${revoked.body.id}`).set(bearer(key))).status).toBe(204);
    clock.advance(10_000);
    expect((await list(key)).body.map((k: { name: string }) => k.name)).toEqual(['root']);
    expect(short.status).toBe(201);
  });

  it('refuses scopes the calling key lacks: 403 insufficient_scope, and creates nothing', async () => {
    const { key } = await newClient(['pets:read', 'keys:manage']);
    const res = await create(key, { name: 'writer', scopes: ['pets:write'] });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 'insufficient_scope', message: expect.stringContaining('pets:write'), status: 403 });
    // The default scopes include pets:write too.
    expect((await create(key, { name: 'default' })).status).toBe(403);
    expect((await list(key)).body).toHaveLength(1);
  });

  it.each([
    [{}, 'name'],
    [{ name: '' }, 'name'],
    [{ name: '   ' }, 'name'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ name: 'tab\there' }, 'name'],
    [{ name: 'ok', scopes: ['pets:admin'] }, 'scopes'],
    [{ name: 'ok', scopes: 'pets:read' }, 'scopes'],
    [{ name: 'ok', scopes: [] }, 'scopes'],
    [{ name: 'ok', expiresInSeconds: 0 }, 'expiresInSeconds'],
    [{ name: 'ok', expiresInSeconds: 1.5 }, 'expiresInSeconds'],
    [{ name: 'ok', expiresInSeconds: 10 ** 12 }, 'expiresInSeconds'],
    [{ name: 'ok', owner: 1 }, 'owner'],
  ])('refuses %j: 400 validation_failed on %s', async (body, field) => {
    const { key } = await newClient();
    const res = await create(key, body);
    expect([res.status, res.body.code]).toEqual([400, 'validation_failed']);
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
  });

  it('refuses a 21st live key: 409 key_limit_reached, and room again after a revocation', async () => {
    const { key, id } = await newClient();
    for (let n = 2; n <= 20; n++) expect((await create(key, { name: `key ${n}` })).status).toBe(201);
    const refused = await create(key, { name: 'one too many' });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ code: 'key_limit_reached', message: expect.stringContaining('20'), status: 409 });
    expect((await list(key)).body).toHaveLength(20);
    const [, second] = (await list(key)).body as { id: number }[];
    expect((await t.http().delete(`/v1/keys/${second.id}`).set(bearer(key))).status).toBe(204);
    expect((await create(key, { name: 'room again' })).status).toBe(201);
    // A client at its limit can still rotate: the rolled key is on its way out.
    expect((await t.http().post(`/v1/keys/${id}/roll`).set(bearer(key)).send({})).status).toBe(201);
  });

  it('admits concurrent creations up to the limit and no further', async () => {
    const { key } = await newClient();
    for (let n = 2; n <= 18; n++) expect((await create(key, { name: `key ${n}` })).status).toBe(201);
    const answers = await Promise.all(Array.from({ length: 5 }, (_, n) => create(key, { name: `racer ${n}` })));
    expect(answers.map((res) => res.status).sort()).toEqual([201, 201, 409, 409, 409]);
    expect((await list(key)).body).toHaveLength(20);
  });

  it("answers another client's key id exactly as an id that does not exist", async () => {
    const mine = await newClient();
    const theirs = await newClient();
    const unknownId = theirs.id + 1_000_000;
    const calls = [
      (id: number) => t.http().delete(`/v1/keys/${id}`).set(bearer(mine.key)),
      (id: number) => t.http().post(`/v1/keys/${id}/roll`).set(bearer(mine.key)).send({}),
    ];
    for (const call of calls) {
      const [other, unknown] = [await call(theirs.id), await call(unknownId)];
      const comparable = (res: typeof other) => ({
        status: res.status,
        body: res.body as unknown,
        headers: Object.fromEntries(Object.entries(res.headers).filter(([name]) => !PER_REQUEST.includes(name))),
      });
      expect(other.status).toBe(404);
      expect(other.body).toEqual({ code: 'not_found', message: 'No such key among your live keys.', status: 404 });
      expect(comparable(other)).toEqual(comparable(unknown));
    }
    expect((await petsWith(theirs.key)).status).toBe(200);
  });

  it.each([
    ['get', '/v1/keys'],
    ['post', '/v1/keys'],
    ['post', '/v1/keys/1/roll'],
    ['delete', '/v1/keys/1'],
  ] as const)('refuses %s %s to a key without keys:manage: 403 insufficient_scope', async (method, path) => {
    const { key } = await newClient(['pets:read', 'pets:write']);
    const res = await t.http()[method](path).set(bearer(key)).send({ name: 'x' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('insufficient_scope');
    expect(res.headers['www-authenticate']).toBe('Bearer realm="pets", error="insufficient_scope", scope="keys:manage"');
  });

  it('rolls a key: same name and scopes, the old one works during the overlap, then 401 "expired"', async () => {
    const { key } = await newClient();
    const old = await create(key, { name: 'ci', scopes: ['pets:read'] });
    const rolled = await t.http().post(`/v1/keys/${old.body.id}/roll`).set(bearer(key)).send({ overlapSeconds: 60 });
    expect(rolled.status).toBe(201);
    expect(rolled.body).toMatchObject({ name: 'ci', scopes: ['pets:read'], expiresAt: null });
    expect(rolled.body.key).not.toBe(old.body.key);
    expect(rolled.headers.location).toMatch(new RegExp(`/v1/keys/${rolled.body.id}$`));
    const oldShown = (await list(key)).body.find((k: { id: number }) => k.id === old.body.id);
    expect(oldShown.expiresAt).toBe(new Date(clock.now().getTime() + 60_000).toISOString());

    clock.advance(59_000);
    expect((await petsWith(old.body.key)).status).toBe(200);
    clock.advance(1_000);
    const refused = await petsWith(old.body.key);
    expect([refused.status, refused.body]).toEqual([401, { code: 'invalid_api_key', message: 'expired', status: 401 }]);
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="pets"');
    // Long after the lookup cache has let go, the database's answer says the same.
    clock.advance(600_000);
    expect((await petsWith(old.body.key)).body.message).toBe('expired');
    expect((await petsWith(rolled.body.key)).status).toBe(200);
  });

  it('never extends the expiry of a key that expires sooner than the overlap', async () => {
    const { key } = await newClient();
    const old = await create(key, { name: 'short', expiresInSeconds: 30 });
    const expiresAt = old.body.expiresAt as string;
    expect((await t.http().post(`/v1/keys/${old.body.id}/roll`).set(bearer(key)).send({})).status).toBe(201);
    expect((await list(key)).body.find((k: { id: number }) => k.id === old.body.id).expiresAt).toBe(expiresAt);
  });

  it.each([[{ overlapSeconds: -1 }], [{ overlapSeconds: 86_401 }], [{ overlapSeconds: 'soon' }]])(
    'refuses roll body %j: 400 validation_failed',
    async (body) => {
      const { key, id } = await newClient();
      const res = await t.http().post(`/v1/keys/${id}/roll`).set(bearer(key)).send(body);
      expect([res.status, res.body.code]).toEqual([400, 'validation_failed']);
    },
  );

  it.each([
    ['abc', 'keyId must be an integer'],
    ['0', 'keyId must not be less than 1'],
    ['9007199254740992', 'keyId must not be greater than 9007199254740991'],
  ])('refuses key id %s in the path: 400 validation_failed, "%s"', async (keyId, message) => {
    const { key } = await newClient();
    const res = await t.http().delete(`/v1/keys/${keyId}`).set(bearer(key));
    expect([res.status, res.body.code, res.body.details]).toEqual([400, 'validation_failed', [{ field: 'keyId', message }]]);
  });

  it('revokes a key, itself included: 204, then 401 once the lookup cache has let go', async () => {
    const { key, id } = await newClient();
    expect((await petsWith(key)).status).toBe(200);
    const res = await t.http().delete(`/v1/keys/${id}`).set(bearer(key));
    expect([res.status, res.text]).toEqual([204, '']);
    clock.advance(5_000);
    const refused = await petsWith(key);
    expect([refused.status, refused.body.code]).toEqual([401, 'invalid_api_key']);
  });

  it('replays POST /v1/keys under one Idempotency-Key, to the same client only, and creates once', async () => {
    const { key } = await newClient();
    const first = await create(key, { name: 'retried' }, { 'Idempotency-Key': 'create-1' });
    const again = await create(key, { name: 'retried' }, { 'Idempotency-Key': 'create-1' });
    expect(first.status).toBe(201);
    expect([again.status, again.body, again.headers.location]).toEqual([201, first.body, first.headers.location]);
    expect((await list(key)).body).toHaveLength(2);
    expect((await create(key, { name: 'other' }, { 'Idempotency-Key': 'create-1' })).status).toBe(422);

    const stranger = await newClient();
    const theirs = await create(stranger.key, { name: 'retried' }, { 'Idempotency-Key': 'create-1' });
    expect(theirs.status).toBe(201);
    expect(theirs.body.key).not.toBe(first.body.key);
  });

  it('seals the replay of a new key under the API key that asked: the same key replays it, the database and another key of the client cannot read it', async () => {
    const { key, clientId } = await newClient();
    const first = await create(key, { name: 'sealed' }, { 'Idempotency-Key': 'sealed-1' });
    expect(first.status).toBe(201);
    const secret = first.body.key as string;
    const again = await create(key, { name: 'sealed' }, { 'Idempotency-Key': 'sealed-1' });
    expect([again.status, again.body.key, again.text, again.headers.location]).toEqual([201, secret, first.text, first.headers.location]);

    const rows: Array<Record<string, unknown>> = await t.dataSource.query('SELECT * FROM idempotency_keys WHERE client_id = $1', [
      clientId,
    ]);
    expect(rows).toHaveLength(1);
    const stored = rows.flatMap((row) => Object.values(row).map(String)).join('\n');
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secret.slice(5));
    expect(stored).not.toContain(createHash('sha256').update(secret).digest('hex'));
    expect(stored).not.toContain(first.text);
    expect(stored).not.toContain('"sealed"');

    const colleague = (await t.app.get(ApiKeysService).issue(clientId, { name: 'colleague', scopes: MANAGER }, OPERATOR)).key;
    const keysBefore = (await list(key)).body.length;
    const refused = await create(colleague, { name: 'sealed' }, { 'Idempotency-Key': 'sealed-1' });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ code: 'idempotency_key_reused', message: expect.stringContaining('another API key'), status: 422 });
    expect(refused.text).not.toContain(secret);
    expect((await list(key)).body).toHaveLength(keysBefore);
  });

  it('replays a roll under one Idempotency-Key: the same successor, and the old key rolled once', async () => {
    const { key } = await newClient();
    const old = await create(key, { name: 'rolled once' });
    const roll = () =>
      t.http().post(`/v1/keys/${old.body.id}/roll`).set(bearer(key)).set('Idempotency-Key', 'roll-1').send({ overlapSeconds: 60 });
    const [first, again] = [await roll(), await roll()];
    expect(first.status).toBe(201);
    expect([again.status, again.body, again.headers.location]).toEqual([201, first.body, first.headers.location]);
    expect((await list(key)).body.filter((k: { name: string }) => k.name === 'rolled once')).toHaveLength(2);
  });
});
