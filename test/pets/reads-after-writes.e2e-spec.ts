import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * docs/contract/decisions.md, "Reads after writes", on the embedded defaults (one instance, no
 * Redis): once a creation has been answered 201, plain or idempotent, every later list and get
 * sees it, though the same reads were cached just before. Across replicas sharing Redis:
 * test/redis-read-cache.int-spec.ts and test/redis-cluster.int-spec.ts.
 */
describe('reads after writes (e2e)', () => {
  let app: TestApp;
  let auth: Record<string, string>;

  beforeAll(async () => {
    app = await createTestApp();
    auth = { Authorization: `Bearer ${await app.newKey()}`, Host: 'pets.example' };
  });
  afterAll(() => app.close());

  it.each([
    ['a plain creation', {}],
    ['an idempotent creation (its record commits with the animal, then the generation moves on)', { 'Idempotency-Key': 'order-1' }],
  ])('lists and gets what %s has just made, page after page', async (_case, headers) => {
    const list = (query: string) => app.http().get(`/v1/pets${query}`).set(auth);
    for (const name of ['Rex', 'Bella']) {
      // The same reads just before the write, twice, so the cache is warm and would be stale.
      const before = await list('?limit=100');
      await list('?limit=100');
      await list('?status=available&limit=100');
      const created = await app
        .http()
        .post('/v1/pets')
        .set({ ...auth, ...headers, ...('Idempotency-Key' in headers && { 'Idempotency-Key': `${headers['Idempotency-Key']}-${name}` }) })
        .send({ name, categoryId: 1 });
      expect(created.status).toBe(201);
      expect((await list('?limit=100')).body).toEqual([...before.body, created.body]);
      expect((await list('?status=available&limit=100')).body.at(-1)).toEqual(created.body);
      const fetched = await app.http().get(`/v1/pets/${created.body.id}`).set(auth);
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(created.body);
    }
  });
});
