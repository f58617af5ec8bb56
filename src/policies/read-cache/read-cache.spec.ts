import { jest } from '@jest/globals';
import type { ConfigService } from '@nestjs/config';
import type { Clock } from '../../common/index.js';
import type { DataGeneration } from './data-generation.js';
import { READ_CACHE_ENTRIES, ReadCache, type CachedAnswer } from './read-cache.js';

const page = (n: number): CachedAnswer => ({ json: `[${n}]`, headers: [] });
const loaded = (n: number) => () => Promise.resolve(page(n));
const unexpected = () => Promise.reject(new Error('loaded again'));

describe('ReadCache', () => {
  const bump = jest.fn<DataGeneration['bump']>().mockResolvedValue(undefined);
  const generations = { bump } as unknown as DataGeneration;
  let nowMs = 0;
  const clock: Clock = { now: () => new Date(nowMs) };
  const cacheWith = (ttlMs: number) => new ReadCache(generations, clock, { getOrThrow: () => ({ ttlMs }) } as unknown as ConfigService);
  /** A cache that holds `key` under `generation`. */
  const holding = async (ttlMs: number, generation: number, key: string, n: number) => {
    const cache = cacheWith(ttlMs);
    await cache.read('pets', generation, key, loaded(n));
    return cache;
  };

  /** A load of `key` that finishes when the test says. */
  const pendingLoad = (cache: ReadCache, generation: number, key: string) => {
    let finish!: (answer: CachedAnswer) => void;
    const answer = cache.read('pets', generation, key, () => new Promise((resolve) => (finish = resolve)));
    return { answer, finish: (n: number) => finish(page(n)) };
  };

  beforeEach(() => {
    nowMs = Date.parse('2027-03-01T12:00:00Z');
    bump.mockClear();
  });

  it('serves what it loaded for the same generation, at once, for at most the time to live', async () => {
    const cache = await holding(1_000, 7, 'a', 1);
    nowMs += 1_000;
    expect(cache.read('pets', 7, 'a', unexpected)).toEqual(page(1));
    nowMs += 1;
    await expect(cache.read('pets', 7, 'a', loaded(2))).resolves.toEqual(page(2));
  });

  it('forgets everything when another generation is read, older or newer', async () => {
    const cache = await holding(1_000, 7, 'a', 1);
    await expect(cache.read('pets', 8, 'a', loaded(2))).resolves.toEqual(page(2));
    await expect(cache.read('pets', 7, 'a', loaded(3))).resolves.toEqual(page(3));
  });

  it('drops a read that finished after the generation moved on', async () => {
    const cache = cacheWith(1_000);
    const reading = pendingLoad(cache, 7, 'a');
    await cache.read('pets', 8, 'b', loaded(2));
    reading.finish(1);
    await expect(reading.answer).resolves.toEqual(page(1));
    await expect(cache.read('pets', 8, 'a', loaded(3))).resolves.toEqual(page(3));
  });

  it('loads once for every request that misses the same entry at the same time', async () => {
    const cache = cacheWith(1_000);
    const load = jest.fn(() => new Promise<CachedAnswer>((resolve) => setTimeout(() => resolve(page(1)), 10)));
    const answers = await Promise.all(Array.from({ length: 50 }, async () => cache.read('pets', 7, 'a', load)));
    expect(load).toHaveBeenCalledTimes(1);
    expect(answers).toEqual(Array(50).fill(page(1)));
  });

  it('answers the requests that joined a failed load with its failure, without loading again', async () => {
    const cache = cacheWith(1_000);
    const again = jest.fn(loaded(2));
    const failing = cache.read('pets', 7, 'a', () => Promise.reject(new Error('database down')));
    const waiting = cache.read('pets', 7, 'a', again);
    await expect(failing).rejects.toThrow('database down');
    await expect(waiting).rejects.toThrow('database down');
    expect(again).not.toHaveBeenCalled();
    await expect(cache.read('pets', 7, 'a', loaded(3))).resolves.toEqual(page(3));
  });

  it('holds a bounded number of entries, the least recent going first', async () => {
    const cache = await holding(60_000, 1, 'k0', 0);
    for (let n = 1; n <= READ_CACHE_ENTRIES; n += 1) await cache.read('pets', 1, `k${n}`, loaded(n));
    await expect(cache.read('pets', 1, 'k0', loaded(-1))).resolves.toEqual(page(-1));
    expect(cache.read('pets', 1, `k${READ_CACHE_ENTRIES}`, unexpected)).toEqual(page(READ_CACHE_ENTRIES));
  });

  it('is off when its time to live is 0', () => {
    expect(cacheWith(0).enabled).toBe(false);
    expect(cacheWith(1).enabled).toBe(true);
  });

  it('after a write, keeps nothing a load begun before it read, and starts requests on a new load', async () => {
    const cache = cacheWith(1_000);
    const stale = pendingLoad(cache, 7, 'a');
    await cache.changed('pets'); // say its generation bump failed: the generation is still 7
    const fresh = cache.read('pets', 7, 'a', loaded(2));
    stale.finish(1);
    await expect(stale.answer).resolves.toEqual(page(1));
    await expect(fresh).resolves.toEqual(page(2));
    expect(cache.read('pets', 7, 'a', unexpected)).toEqual(page(2));
  });

  it("after a write of one tag, keeps every other tag's entries", async () => {
    const cache = await holding(1_000, 7, 'a', 1);
    await cache.read('kennels', 3, 'a', loaded(10));
    await cache.changed('kennels');
    expect(cache.read('pets', 7, 'a', unexpected)).toEqual(page(1));
    await expect(cache.read('kennels', 3, 'a', loaded(11))).resolves.toEqual(page(11));
  });

  it('after a write, forgets its entries and moves the generation on', async () => {
    const cache = await holding(1_000, 7, 'a', 1);
    await cache.changed('pets');
    expect(bump).toHaveBeenCalledWith('pets');
    await expect(cache.read('pets', 7, 'a', loaded(2))).resolves.toEqual(page(2));
  });
});
