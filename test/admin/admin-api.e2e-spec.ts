import { FakeClock } from '../support/fake-clock.js';
import { createAdminTestApp, type AdminTestApp } from './admin-app.js';

interface ClientBody {
  id: number;
  name: string;
  plan: string;
  limits: { perMinute: number; perDay: number };
  createdAt: string;
}
interface KeyBody {
  id: number;
  clientId: number;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  plan?: string;
  key?: string;
}

const KEY = /^pets_[0-9A-Za-z]{38}$/;

describe('The admin API (e2e)', () => {
  let t: AdminTestApp;
  const clock = new FakeClock(new Date('2027-03-01T12:00:00Z'));
  let auth: { Authorization: string };

  const admin = () => t.admin();
  const createClient = async (body: object) => {
    const res = await admin().post('/admin/v1/clients').set(auth).send(body);
    expect(res.status).toBe(201);
    return res.body as ClientBody;
  };
  const createKey = async (clientId: number, body: object = {}) => {
    const res = await admin().post(`/admin/v1/clients/${clientId}/keys`).set(auth).send(body);
    expect(res.status).toBe(201);
    return res.body as KeyBody & { key: string; plan: string };
  };
  const expectError = (res: { status: number; body: unknown }, status: number, code: string, message?: string) => {
    expect(res.status).toBe(status);
    expect(res.body).toEqual(expect.objectContaining({ code, status, message: message ?? expect.any(String) }));
  };

  beforeAll(async () => {
    t = await createAdminTestApp({ clock });
    auth = { Authorization: `Bearer ${(await t.newAdminToken()).token}` };
  });
  afterAll(() => t.close());

  describe('POST /admin/v1/clients (createClient)', () => {
    it('creates a client on a fixed plan, with its Location', async () => {
      const res = await admin().post('/admin/v1/clients').set(auth).send({ name: '  Acme  ', plan: 'pro' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        name: 'Acme',
        plan: 'pro',
        limits: { perMinute: 300, perDay: 10_000 },
        createdAt: expect.any(String),
      });
      expect(res.headers.location).toBe(`/admin/v1/clients/${res.body.id}`);
      const located = await admin().get(String(res.headers.location)).set(auth);
      expect(located.body).toEqual(res.body);
    });

    it('creates an enterprise client with its own limits', async () => {
      expect(await createClient({ name: 'Big', plan: 'enterprise', perMinute: 5_000, perDay: 100 })).toMatchObject({
        plan: 'enterprise',
        limits: { perMinute: 5_000, perDay: 100 },
      });
    });

    it.each([
      [{ name: 'X', plan: 'gold' }, 'Unknown plan "gold"; choose one of free, pro, business, enterprise.'],
      [{ name: 'X', plan: 'enterprise' }, 'The enterprise plan needs both perMinute and perDay.'],
      [{ name: 'X', plan: 'enterprise', perDay: 5 }, 'The enterprise plan needs both perMinute and perDay.'],
      [
        { name: 'X', plan: 'free', perMinute: 5, perDay: 50 },
        'The free plan has fixed limits; perMinute and perDay are only for enterprise.',
      ],
      [{ name: 'X', plan: 'enterprise', perMinute: 0, perDay: 5 }, 'perMinute must be a positive integer.'],
      [{ name: 'X', plan: 'enterprise', perMinute: 5, perDay: 2 ** 60 }, 'perDay must be a positive integer.'],
      [{ name: '   ', plan: 'free' }, 'A client name must be 1 to 200 characters, not only white space.'],
      [{ name: 'x'.repeat(201), plan: 'free' }, 'A client name must be 1 to 200 characters, not only white space.'],
    ])('refuses %j by the plan rules with 400 validation_failed', async (body, message) => {
      expectError(await admin().post('/admin/v1/clients').set(auth).send(body), 400, 'validation_failed', message);
    });

    it.each([
      [{ plan: 'free' }, 'name', 'name is required'],
      [{ name: 'X' }, 'plan', 'plan is required'],
      [{ name: 7, plan: 'free' }, 'name', 'name must be a string'],
      [{ name: 'X', plan: 'enterprise', perMinute: '5', perDay: 5 }, 'perMinute', 'perMinute must be an integer number'],
      [{ name: 'X', plan: 'free', owner: 'me' }, 'owner', 'property owner should not exist'],
    ])('refuses %j with the field at fault', async (body, field, message) => {
      const res = await admin().post('/admin/v1/clients').set(auth).send(body);
      expectError(res, 400, 'validation_failed');
      expect(res.body.details).toEqual([{ field, message }]);
    });
  });

  describe('GET /admin/v1/clients (listClients)', () => {
    it('pages through every client in id order with limit and the nextCursor', async () => {
      for (const name of ['Page A', 'Page B', 'Page C']) await createClient({ name, plan: 'free' });
      const seen: ClientBody[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await admin()
          .get('/admin/v1/clients')
          .query({ limit: 2, ...(cursor && { cursor }) })
          .set(auth);
        expect(res.status).toBe(200);
        expect(res.body.clients.length).toBeLessThanOrEqual(2);
        seen.push(...(res.body.clients as ClientBody[]));
        cursor = res.body.nextCursor as string | null;
        pages++;
      } while (cursor);
      const all = (await admin().get('/admin/v1/clients').query({ limit: 100 }).set(auth)).body as {
        clients: ClientBody[];
        nextCursor: null;
      };
      expect(all.nextCursor).toBeNull();
      expect(seen).toEqual(all.clients);
      expect(pages).toBe(Math.ceil(all.clients.length / 2));
      expect(seen.map((client) => client.id)).toEqual([...seen.map((client) => client.id)].sort((a, b) => a - b));
    });

    it('lists 20 by default', async () => {
      for (let i = 0; i < 20; i++) await createClient({ name: `Many ${i}`, plan: 'free' });
      const res = await admin().get('/admin/v1/clients').set(auth);
      expect([res.body.clients.length, typeof res.body.nextCursor]).toEqual([20, 'string']);
    });

    it.each([
      [{ limit: 0 }, 'limit'],
      [{ limit: 101 }, 'limit'],
      [{ limit: 'many' }, 'limit'],
      [{ cursor: 'not-a-cursor' }, 'cursor'],
      [{ colour: 'red' }, 'colour'],
    ])('refuses %j with 400 validation_failed', async (query, field) => {
      const res = await admin().get('/admin/v1/clients').query(query).set(auth);
      expectError(res, 400, 'validation_failed');
      expect(res.body.details[0].field).toBe(field);
    });

    it("refuses a cursor of a client's keys: a cursor continues only its own listing", async () => {
      const { id } = await createClient({ name: 'Cursor', plan: 'free' });
      for (let i = 0; i < 2; i++) await createKey(id);
      const { nextCursor } = (await admin().get(`/admin/v1/clients/${id}/keys?limit=1`).set(auth)).body as { nextCursor: string };
      expectError(
        await admin().get('/admin/v1/clients').query({ cursor: nextCursor }).set(auth),
        400,
        'validation_failed',
        'cursor is malformed or continues another listing; pass the one the page before gave',
      );
    });
  });

  describe('GET /admin/v1/clients/{clientId} (getClient)', () => {
    it('answers the client, and 404 for an unknown one', async () => {
      const created = await createClient({ name: 'Got', plan: 'business' });
      expect((await admin().get(`/admin/v1/clients/${created.id}`).set(auth)).body).toEqual(created);
      expectError(await admin().get('/admin/v1/clients/999999').set(auth), 404, 'not_found', 'No client with id 999999.');
      expectError(await admin().get('/admin/v1/clients/0').set(auth), 400, 'validation_failed');
    });
  });

  describe('PUT /admin/v1/clients/{clientId}/plan (setClientPlan)', () => {
    it('moves a client to another plan, and to enterprise with limits', async () => {
      const { id } = await createClient({ name: 'Mover', plan: 'free' });
      const moved = await admin().put(`/admin/v1/clients/${id}/plan`).set(auth).send({ plan: 'business' });
      expect([moved.status, moved.body.plan, moved.body.limits]).toEqual([200, 'business', { perMinute: 1_000, perDay: 100_000 }]);
      const custom = await admin().put(`/admin/v1/clients/${id}/plan`).set(auth).send({ plan: 'enterprise', perMinute: 7, perDay: 70 });
      expect(custom.body).toMatchObject({ id, plan: 'enterprise', limits: { perMinute: 7, perDay: 70 } });
    });

    it('refuses an unknown client, a bad plan and a body without a plan', async () => {
      const { id } = await createClient({ name: 'Stays', plan: 'free' });
      expectError(
        await admin().put('/admin/v1/clients/999999/plan').set(auth).send({ plan: 'pro' }),
        404,
        'not_found',
        'No client with id 999999.',
      );
      expectError(await admin().put(`/admin/v1/clients/${id}/plan`).set(auth).send({ plan: 'enterprise' }), 400, 'validation_failed');
      expectError(await admin().put(`/admin/v1/clients/${id}/plan`).set(auth).send({}), 400, 'validation_failed');
      expect((await admin().get(`/admin/v1/clients/${id}`).set(auth)).body.plan).toBe('free');
    });
  });

  describe('POST /admin/v1/clients/{clientId}/keys (createClientKey)', () => {
    it('creates a key with scopes, a name and an expiry, shown once, that works on the public API', async () => {
      const client = await createClient({ name: 'Keyed', plan: 'pro' });
      const res = await admin()
        .post(`/admin/v1/clients/${client.id}/keys`)
        .set(auth)
        .send({ name: 'deploy', scopes: ['keys:manage', 'pets:read'], expiresInSeconds: 3_600 });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        clientId: client.id,
        name: 'deploy',
        prefix: res.body.key.slice(0, 13),
        scopes: ['pets:read', 'keys:manage'],
        createdAt: expect.any(String),
        expiresAt: '2027-03-01T13:00:00.000Z',
        revokedAt: null,
        lastUsedAt: null,
        plan: 'pro',
        key: expect.stringMatching(KEY),
      });
      expect(res.headers.location).toBe(`/admin/v1/clients/${client.id}/keys/${res.body.id}`);
      expect(
        (
          await t
            .http()
            .get('/v1/pets')
            .set({ Authorization: `Bearer ${res.body.key}` })
        ).status,
      ).toBe(200);
      expect(
        (
          await t
            .http()
            .post('/v1/pets')
            .set({ Authorization: `Bearer ${res.body.key}` })
            .send({ name: 'Rex', categoryId: 1 })
        ).status,
      ).toBe(403);
    });

    it('gives a key without a body the empty name, the default scopes and no expiry', async () => {
      const { id } = await createClient({ name: 'Defaults', plan: 'free' });
      expect(await createKey(id)).toMatchObject({ name: '', scopes: ['pets:read', 'pets:write'], expiresAt: null });
    });

    it('refuses an unknown client with 404 and bad values with 400', async () => {
      expectError(await admin().post('/admin/v1/clients/999999/keys').set(auth).send({}), 404, 'not_found', 'No client with id 999999.');
      const { id } = await createClient({ name: 'Strict', plan: 'free' });
      for (const body of [
        { scopes: ['pets:delete'] },
        { scopes: [] },
        { expiresInSeconds: 0 },
        { name: 'a\u0000b' },
        { name: ' ' },
        { key: 'mine' },
      ]) {
        expectError(await admin().post(`/admin/v1/clients/${id}/keys`).set(auth).send(body), 400, 'validation_failed');
      }
    });
  });

  describe('GET /admin/v1/clients/{clientId}/keys (listClientKeys)', () => {
    it("lists a client's keys, revoked ones too, by prefix only, a page at a time", async () => {
      const { id } = await createClient({ name: 'Lister', plan: 'free' });
      const keys = [await createKey(id, { name: 'one' }), await createKey(id, { name: 'two' }), await createKey(id, { name: 'three' })];
      expect((await admin().delete(`/admin/v1/clients/${id}/keys/${keys[1].id}`).set(auth)).status).toBe(204);
      const first = await admin().get(`/admin/v1/clients/${id}/keys?limit=2`).set(auth);
      const second = await admin().get(`/admin/v1/clients/${id}/keys`).query({ limit: 2, cursor: first.body.nextCursor }).set(auth);
      const listed = [...first.body.keys, ...second.body.keys] as KeyBody[];
      expect(second.body.nextCursor).toBeNull();
      expect(listed.map((key) => [key.id, key.name, key.revokedAt !== null])).toEqual([
        [keys[0].id, 'one', false],
        [keys[1].id, 'two', true],
        [keys[2].id, 'three', false],
      ]);
      expect(Object.keys(listed[0]).sort()).toEqual([
        'clientId',
        'createdAt',
        'expiresAt',
        'id',
        'lastUsedAt',
        'name',
        'prefix',
        'revokedAt',
        'scopes',
      ]);
      expect(JSON.stringify(listed)).not.toMatch(/pets_[0-9A-Za-z]{38}/);
    });

    it('refuses an unknown client', async () => {
      expectError(await admin().get('/admin/v1/clients/999999/keys').set(auth), 404, 'not_found', 'No client with id 999999.');
    });
  });

  describe('POST /admin/v1/clients/{clientId}/keys/{keyId}/roll (rollClientKey)', () => {
    it('makes a key of the same name and scopes; the old one works for the overlap, then is refused "expired"', async () => {
      const client = await createClient({ name: 'Roller', plan: 'pro' });
      const old = await createKey(client.id, { name: 'ci', scopes: ['pets:read'] });
      const res = await admin().post(`/admin/v1/clients/${client.id}/keys/${old.id}/roll`).set(auth).send({ overlapSeconds: 60 });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        clientId: client.id,
        name: 'ci',
        scopes: ['pets:read'],
        plan: 'pro',
        key: expect.stringMatching(KEY),
      });
      expect(res.headers.location).toBe(`/admin/v1/clients/${client.id}/keys/${res.body.id}`);
      const listed = (await admin().get(`/admin/v1/clients/${client.id}/keys`).set(auth)).body.keys as KeyBody[];
      expect(listed.find((key) => key.id === old.id)?.expiresAt).toBe('2027-03-01T12:01:00.000Z');
      const oldKey = { Authorization: `Bearer ${old.key}` };
      expect((await t.http().get('/v1/pets').set(oldKey)).status).toBe(200);
      clock.advance(60_000);
      const refused = await t.http().get('/v1/pets').set(oldKey);
      expect([refused.status, refused.body.message]).toEqual([401, 'expired']);
      expect(
        (
          await t
            .http()
            .get('/v1/pets')
            .set({ Authorization: `Bearer ${res.body.key}` })
        ).status,
      ).toBe(200);
    });

    it('rolls with an hour of overlap by default', async () => {
      const { id } = await createClient({ name: 'Default roll', plan: 'free' });
      const old = await createKey(id);
      expect((await admin().post(`/admin/v1/clients/${id}/keys/${old.id}/roll`).set(auth)).status).toBe(201);
      const listed = (await admin().get(`/admin/v1/clients/${id}/keys`).set(auth)).body.keys as KeyBody[];
      expect(Date.parse(listed[0].expiresAt!) - clock.now().getTime()).toBe(3_600_000);
    });

    it("refuses another client's key, a revoked key, an unknown client and a bad overlap", async () => {
      const mine = await createClient({ name: 'Mine', plan: 'free' });
      const theirs = await createClient({ name: 'Theirs', plan: 'free' });
      const theirKey = await createKey(theirs.id);
      const revoked = await createKey(mine.id);
      await admin().delete(`/admin/v1/clients/${mine.id}/keys/${revoked.id}`).set(auth);
      const roll = (clientId: number, keyId: number, body: object = {}) =>
        admin().post(`/admin/v1/clients/${clientId}/keys/${keyId}/roll`).set(auth).send(body);
      expectError(await roll(mine.id, theirKey.id), 404, 'not_found', `Client ${mine.id} has no live API key with id ${theirKey.id}.`);
      expectError(await roll(mine.id, revoked.id), 404, 'not_found', `Client ${mine.id} has no live API key with id ${revoked.id}.`);
      expectError(await roll(999_999, theirKey.id), 404, 'not_found', 'No client with id 999999.');
      expectError(await roll(theirs.id, theirKey.id, { overlapSeconds: 86_401 }), 400, 'validation_failed');
    });
  });

  describe('DELETE /admin/v1/clients/{clientId}/keys/{keyId} (revokeClientKey)', () => {
    it('revokes a key, which the public API then refuses; revoking again changes nothing', async () => {
      const { id } = await createClient({ name: 'Revoker', plan: 'free' });
      const key = await createKey(id);
      expect(
        (
          await t
            .http()
            .get('/v1/pets')
            .set({ Authorization: `Bearer ${key.key}` })
        ).status,
      ).toBe(200);
      expect((await admin().delete(`/admin/v1/clients/${id}/keys/${key.id}`).set(auth)).status).toBe(204);
      expect((await admin().delete(`/admin/v1/clients/${id}/keys/${key.id}`).set(auth)).status).toBe(204);
      clock.advance(4_001);
      expect(
        (
          await t
            .http()
            .get('/v1/pets')
            .set({ Authorization: `Bearer ${key.key}` })
        ).status,
      ).toBe(401);
    });

    it("refuses another client's key and an unknown one, revoking nothing", async () => {
      const mine = await createClient({ name: 'Mine too', plan: 'free' });
      const theirs = await createClient({ name: 'Theirs too', plan: 'free' });
      const theirKey = await createKey(theirs.id);
      expectError(await admin().delete(`/admin/v1/clients/${mine.id}/keys/${theirKey.id}`).set(auth), 404, 'not_found');
      expectError(
        await admin().delete(`/admin/v1/clients/${mine.id}/keys/999999`).set(auth),
        404,
        'not_found',
        `Client ${mine.id} has no API key with id 999999.`,
      );
      expectError(
        await admin().delete(`/admin/v1/clients/999999/keys/${theirKey.id}`).set(auth),
        404,
        'not_found',
        'No client with id 999999.',
      );
      expect((await admin().get(`/admin/v1/clients/${theirs.id}/keys`).set(auth)).body.keys[0].revokedAt).toBeNull();
    });
  });
});
