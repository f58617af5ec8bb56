import { jest } from '@jest/globals';
import { BASE_URL, clientOf, FakeApi, minuteFull, settle, type Reply } from '../test/fake-api.js';
import type { Pet } from './contract.js';

const pets = (...ids: number[]): Pet[] => ids.map((id) => ({ id, name: `Pet ${id}`, categoryId: 1, status: 'pending' }));
const page = (ids: number[], next?: string): Reply => ({
  status: 200,
  body: pets(...ids),
  headers: next ? { Link: `<${next}>; rel="next"` } : {},
});

async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('pets.list: every page with for await', () => {
  it('follows rel="next" until a page has none, each animal once, in order', async () => {
    const api = new FakeApi().reply(
      page([1, 2], `${BASE_URL}/pets?limit=2&status=pending&cursor=a`),
      page([3, 4], `${BASE_URL}/pets?limit=2&status=pending&cursor=b`),
      page([5]),
    );
    const { value } = await settle(all(clientOf(api).pets.list({ status: 'pending', limit: 2 })));
    expect(value?.map((pet) => pet.id)).toEqual([1, 2, 3, 4, 5]);
    expect(api.sent.map(({ url }) => url.search)).toEqual([
      '?status=pending&limit=2',
      '?limit=2&status=pending&cursor=a',
      '?limit=2&status=pending&cursor=b',
    ]);
  });

  it('sends only the query parameters that are set', async () => {
    const api = new FakeApi().reply(page([1]));
    await settle(all(clientOf(api).pets.list({ status: undefined, limit: 5 })));
    expect(api.sent[0].url.search).toBe('?limit=5');
  });

  it("asks the client's own origin for the next page, whatever host the link names", async () => {
    const api = new FakeApi().reply(page([1], 'https://public.pets.example/v1/pets?cursor=a'), page([2]));
    await settle(all(clientOf(api).pets.list()));
    expect(api.sent[1].url.href).toBe(`${BASE_URL}/pets?cursor=a`);
  });

  it('ends on a last page that is exactly full, and on an empty list', async () => {
    const api = new FakeApi().reply(page([1, 2]), page([]));
    const client = clientOf(api);
    expect((await settle(all(client.pets.list({ limit: 2 })))).value).toHaveLength(2);
    expect((await settle(all(client.pets.list()))).value).toEqual([]);
    expect(api.sent).toHaveLength(2);
  });

  it('fetches a page only when the iteration reaches it', async () => {
    const api = new FakeApi().reply(page([1, 2], `${BASE_URL}/pets?cursor=a`));
    const iterable = clientOf(api).pets.list();
    expect(api.sent).toHaveLength(0);
    for await (const pet of iterable) if (pet.id === 1) break;
    expect(api.sent).toHaveLength(1);
  });

  it('waits out a full minute window in the middle of the walk, and goes on', async () => {
    const api = new FakeApi().reply(page([1], `${BASE_URL}/pets?cursor=a`), minuteFull(12), page([2]));
    const { value } = await settle(all(clientOf(api).pets.list()));
    expect(value?.map((pet) => pet.id)).toEqual([1, 2]);
    expect(api.sent[2].at - api.sent[1].at).toBeGreaterThanOrEqual(12_000);
  });
});
