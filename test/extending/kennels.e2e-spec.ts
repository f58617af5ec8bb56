import { jest } from '@jest/globals';
import { AuditLog } from '../../src/modules/audit/index.js';
import { ApiKeysService } from '../../src/modules/auth/index.js';
import { ClientsService } from '../../src/modules/plans/index.js';
import { PetsService } from '../../src/modules/pets/pets.service.js';
import { describeHouseRules } from '../support/openapi-house-rules.js';
import { createTestApp, OPERATOR, type TestApp } from '../support/test-app.js';
import { KennelsModule } from './kennels/index.js';

/**
 * A team's module plugs in from its own folder: the fixture under ./kennels/ brings an entity and its
 * migration, scopes, an audit action, a configuration variable and an error code, writes in a
 * transaction with its audit event, pages with the shared helper and caches its reads under a tag of
 * its own. The application is told about it in one place, the module list below.
 */
const MODULES = [KennelsModule];

describe('a module added from its own folder (e2e)', () => {
  let t: TestApp;
  let clientId: number;
  let writer: string;
  let reader: string;
  const as = (key: string) => ({ Authorization: `Bearer ${key}` });
  const keyWith = async (...scopes: string[]) => (await t.app.get(ApiKeysService).issue(clientId, { scopes }, OPERATOR)).key;
  const create = (body: object, key = writer) => t.http().post('/v1/kennels').set(as(key)).send(body);

  beforeAll(async () => {
    // Cached reads live a minute here, so only a write renews them, and links (and so the cache's keys) come from one base URL.
    const env = { KENNEL_MAX_PLACES: '10', READ_CACHE_TTL_MS: '60000', PUBLIC_BASE_URL: 'https://api.pets.example/v1' };
    t = await createTestApp({ modules: MODULES, env });
    clientId = (await t.app.get(ClientsService).create('Kennels', 'enterprise', { perMinute: 1_000_000, perDay: 100_000_000 }, OPERATOR))
      .id;
    writer = await keyWith('kennels:read', 'kennels:write', 'pets:read');
    reader = await t.app
      .get(ApiKeysService)
      .issue(clientId, {}, OPERATOR)
      .then(({ key }) => key);
  });
  afterAll(() => t.close());

  it('has its table from its own migration, and a default scope a key made without a list holds', async () => {
    const columns = await t.dataSource.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'kennels' ORDER BY column_name`,
    );
    expect(columns.map((column: { column_name: string }) => column.column_name)).toEqual(['created_at', 'id', 'name', 'places']);
    expect((await t.http().get('/v1/kennels').set(as(reader))).status).toBe(200);
  });

  it('creates a kennel and its audit event in one transaction, behind its own scope', async () => {
    const created = await create({ name: 'North', places: 4 }).expect(201);
    expect(created.body).toEqual({ id: expect.any(Number), name: 'North', places: 4 });
    const [event] = await t.dataSource.query(`SELECT action, details::json AS details FROM audit_events WHERE action = 'kennel.created'`);
    expect(event).toEqual({ action: 'kennel.created', details: { kennelId: created.body.id, name: 'North', places: 4 } });
    const refused = await create({ name: 'South', places: 2 }, reader).expect(403);
    expect(refused.body).toMatchObject({ code: 'insufficient_scope', message: expect.stringContaining('kennels:write') });
  });

  it('leaves neither the kennel nor its event when the change fails after the event', async () => {
    const count = async () => (await t.dataSource.query(`SELECT count(*)::int AS n FROM kennels`))[0].n as number;
    const before = await count();
    const audit = t.app.get(AuditLog);
    const write = audit.record.bind(audit);
    const record = jest.spyOn(audit, 'record').mockImplementationOnce(async (...args) => {
      await write(...args);
      throw new Error('failure after the event');
    });
    const failed = await create({ name: 'Doomed', places: 1 });
    expect(failed.status).toBe(500);
    expect(await count()).toBe(before);
    expect(await t.dataSource.query(`SELECT 1 FROM audit_events WHERE details::json->>'name' = 'Doomed'`)).toEqual([]);
    record.mockRestore();
  });

  it('pages with the shared helper, whose cursor continues only its own listing', async () => {
    for (const name of ['A', 'B', 'C']) await create({ name, places: 1 }).expect(201);
    const first = await t.http().get('/v1/kennels?limit=2').set(as(writer)).expect(200);
    expect(first.body.items).toHaveLength(2);
    const next = await t.http().get(`/v1/kennels?limit=2&cursor=${first.body.nextCursor}`).set(as(writer)).expect(200);
    expect(next.body.items[0].id).toBeGreaterThan(first.body.items[1].id);
    const foreign = await t.http().get(`/v1/pets?cursor=${first.body.nextCursor}`).set(as(writer)).expect(400);
    expect(foreign.body.details).toEqual([{ field: 'cursor', message: expect.stringContaining('continues another listing') }]);
  });

  it("renews only its own cached reads: a kennel's creation leaves the catalogue's cache warm", async () => {
    const pets = jest.spyOn(t.app.get(PetsService), 'list');
    await t.http().get('/v1/pets').set(as(writer)).expect(200);
    const listed = (await t.http().get('/v1/kennels?limit=100').set(as(writer)).expect(200)).body.items.length;
    await create({ name: 'Fresh', places: 2 }).expect(201);
    expect((await t.http().get('/v1/kennels?limit=100').set(as(writer)).expect(200)).body.items).toHaveLength(listed + 1);
    await t.http().get('/v1/pets').set(as(writer)).expect(200);
    expect(pets).toHaveBeenCalledTimes(1);
    pets.mockRestore();
  });

  it('answers its own error and its configuration rule as the Error object', async () => {
    const missing = await t.http().get('/v1/kennels/999999').set(as(writer)).expect(404);
    expect(missing.body).toEqual({ code: 'kennel_not_found', message: 'No kennel with id 999999.', status: 404 });
    const crowded = await create({ name: 'Big', places: 11 }).expect(400);
    expect(crowded.body.details).toEqual([{ field: 'places', message: 'places must be at most 10' }]);
    const invalid = await create({ name: 'North', places: 4, roof: true }).expect(400);
    expect(invalid.body).toMatchObject({ code: 'validation_failed', details: [{ field: 'roof', message: expect.any(String) }] });
  });

  it('has its configuration variable checked at boot, in the one message that names every bad variable', async () => {
    await expect(createTestApp({ modules: MODULES, env: { KENNEL_MAX_PLACES: 'many', PORT: 'eighty' } })).rejects.toThrow(
      /PORT must be an integer[\s\S]*KENNEL_MAX_PLACES must be an integer from 1 to 100 \(got "many"\)/,
    );
  });

  describeHouseRules('with the fixture module', () => ({ app: t, operations: ['listKennels', 'getKennel', 'createKennel'] }));
});
