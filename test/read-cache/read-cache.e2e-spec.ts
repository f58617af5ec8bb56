import { jest } from '@jest/globals';
import { PetsRepository } from '../../src/modules/pets/pets.repository.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * The replica's read cache (src/read-cache) on the embedded defaults: a read is served from the
 * cache while nothing was created since, with the headers it had; a creation, a 404 or another
 * host never leaves a wrong answer behind.
 */
describe('read cache (e2e)', () => {
  let app: TestApp;
  let auth: { Authorization: string };
  let findPage: jest.SpiedFunction<PetsRepository['findPage']>;
  let findById: jest.SpiedFunction<PetsRepository['findById']>;

  beforeAll(async () => {
    app = await createTestApp();
    auth = { Authorization: `Bearer ${await app.newKey()}` };
    const repository = app.app.get(PetsRepository);
    findPage = jest.spyOn(repository, 'findPage');
    findById = jest.spyOn(repository, 'findById');
    for (const name of ['Rex', 'Bella', 'Milo']) await app.http().post('/v1/pets').set(auth).send({ name, categoryId: 1 }).expect(201);
  });
  afterAll(() => app.close());
  beforeEach(() => jest.clearAllMocks());

  // A fixed host: supertest's own would change with every request, and links are built from it.
  const list = (query: string, host = 'pets.example') => app.http().get(`/v1/pets${query}`).set(auth).set('Host', host);
  const get = (id: number) => app.http().get(`/v1/pets/${id}`).set(auth).set('Host', 'pets.example');

  it('answers a repeated list from the cache, Link header included', async () => {
    const first = await list('?limit=2').expect(200);
    const second = await list('?limit=2').expect(200);
    expect(findPage).toHaveBeenCalledTimes(1);
    expect(second.body).toEqual(first.body);
    expect(second.headers.link).toBe(first.headers.link);
    expect(second.headers.link).toMatch(/^<http:\/\/pets\.example\/v1\/pets\?limit=2&cursor=[^>]+>; rel="next"$/);
  });

  it('keeps the links of each host apart', async () => {
    await list('?limit=2', 'pets.example').expect(200);
    const other = await list('?limit=2', 'other.example').expect(200);
    expect(other.headers.link).toMatch(/^<http:\/\/other\.example\//);
  });

  it('reads again after a creation, and shows the new animal', async () => {
    await list('?limit=100').expect(200);
    const created = await app.http().post('/v1/pets').set(auth).send({ name: 'Luna', categoryId: 2 }).expect(201);
    findPage.mockClear();
    const after = await list('?limit=100').expect(200);
    expect(findPage).toHaveBeenCalledTimes(1);
    expect(after.body.at(-1)).toEqual(created.body);
  });

  it('caches an animal it found, never one it did not', async () => {
    const missing = (await list('?limit=100')).body.length + 1;
    await get(missing).expect(404);
    const created = await app.http().post('/v1/pets').set(auth).send({ name: 'Nala', categoryId: 2 }).expect(201);
    expect(created.body.id).toBe(missing);
    findById.mockClear();
    await get(missing).expect(200, created.body);
    await get(missing).expect(200, created.body);
    expect(findById).toHaveBeenCalledTimes(1);
  });

  it('never caches a refused request', async () => {
    await list('?limit=0').expect(400);
    await list('?limit=0').expect(400);
    expect(findPage).not.toHaveBeenCalled();
  });
});
