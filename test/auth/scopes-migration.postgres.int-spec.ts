import { DataSource } from 'typeorm';
import { generateApiKey, hashApiKey, displayPrefix } from '../../src/modules/auth/api-key.format.js';
import { buildTypeOrmOptions } from '../../src/platform/database/index.js';
import { SERVER_MIGRATIONS as MIGRATIONS } from '../support/server-migrations.js';
import { ApiKeyScopes1796688000000 } from '../../src/modules/auth/migrations/1796688000000-api-key-scopes.js';
import { createTestApp } from '../support/test-app.js';
import { emptyDatabase } from '../support/test-databases.js';

/** A database of this suite's own (test/support/test-databases.ts). */
const url = await emptyDatabase();

/**
 * The scopes migration on a database whose keys predate it: such a key gets `pets:read pets:write`,
 * reads and writes through the application, and `down` removes the column.
 */
describe('the api_keys scopes migration (integration, PostgreSQL)', () => {
  const key = generateApiKey();

  /** The schema as the previous release left it, holding one of its keys. */
  beforeAll(async () => {
    const before = MIGRATIONS.slice(0, MIGRATIONS.indexOf(ApiKeyScopes1796688000000));
    const previous = new DataSource(buildTypeOrmOptions(url, { migrationsRun: false, queryTimeoutMs: 10_000 }, before));
    await previous.initialize();
    try {
      await previous.runMigrations();
      const [client] = await previous.query(`INSERT INTO clients (name, plan) VALUES ('Before scopes', 'pro') RETURNING id`);
      await previous.query(
        `INSERT INTO api_keys (client_id, key_hash, prefix) VALUES (${Number(client.id)}, '${hashApiKey(key)}', '${displayPrefix(key)}')`,
      );
    } finally {
      await previous.destroy();
    }
  });

  it('gives a key from before it pets:read pets:write, with which it reads and writes; down drops the column', async () => {
    const t = await createTestApp({ env: { DATABASE_URL: url } });
    try {
      expect(await t.dataSource.query('SELECT scopes FROM api_keys')).toEqual([{ scopes: 'pets:read pets:write' }]);
      const auth = { Authorization: `Bearer ${key}` };
      expect((await t.http().post('/v1/pets').set(auth).send({ name: 'Rex', categoryId: 1 })).status).toBe(201);
      expect((await t.http().get('/v1/pets').set(auth)).status).toBe(200);

      // The scopes migration and every later one, latest first.
      const undone = MIGRATIONS.length - MIGRATIONS.indexOf(ApiKeyScopes1796688000000);
      for (let n = 0; n < undone; n++) await t.dataSource.undoLastMigration();
      const columns = (await t.dataSource.createQueryRunner().getTable('api_keys'))!.columns.map((column) => column.name);
      expect(columns).not.toContain('scopes');
      expect(columns).toContain('key_hash');
      expect(await t.dataSource.query('SELECT prefix FROM api_keys')).toEqual([{ prefix: displayPrefix(key) }]);
    } finally {
      await t.close();
    }
  });
});
