import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * docs/contract/decisions.md, "Reads after writes": once any replica has answered 201, every later
 * listPets or getPet on any replica sees the new animal. Two instances share one database file.
 */
describe('reads after writes across replicas (e2e)', () => {
  const databaseFile = join(tmpdir(), `pets-reads-after-writes-${randomUUID()}.sqlite`);
  let writer: TestApp;
  let reader: TestApp;
  let auth: { Authorization: string };

  beforeAll(async () => {
    writer = await createTestApp({ env: { DATABASE_URL: `sqlite:${databaseFile}` } });
    reader = await createTestApp({ env: { DATABASE_URL: `sqlite:${databaseFile}` } });
    auth = { Authorization: `Bearer ${await writer.newKey()}` };
  });
  afterAll(async () => {
    await Promise.all([writer.close(), reader.close()]);
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${databaseFile}${suffix}`, { force: true });
  });

  it('lists and gets on one instance what the other has just created, page after page', async () => {
    const list = (query: string) => reader.http().get(`/v1/pets${query}`).set(auth);
    for (const name of ['Rex', 'Bella', 'Milo']) {
      // The same reads just before the write, so a cache on the reader would be warm and stale.
      const before = await list('?limit=100');
      await list('?status=available&limit=100');
      const created = await writer.http().post('/v1/pets').set(auth).send({ name, categoryId: 1 });
      expect(created.status).toBe(201);
      expect((await list('?limit=100')).body).toEqual([...before.body, created.body]);
      expect((await list('?status=available&limit=100')).body.at(-1)).toEqual(created.body);
      const fetched = await reader.http().get(`/v1/pets/${created.body.id}`).set(auth);
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(created.body);
    }
  });
});
