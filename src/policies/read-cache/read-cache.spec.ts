import { jest } from '@jest/globals';
import type { ConfigService } from '@nestjs/config';
import type { Clock } from '../../common/index.js';
import type { DataGeneration } from './data-generation.js';
import { READ_CACHE_ENTRIES, ReadCache, type CachedAnswer } from './read-cache.js';

const page = (n: number): CachedAnswer => ({ json: `[${n}]`, headers: [] });
const loaded = (n: number) => () => Promise.resolve(page(n));

describe('ReadCache', () => {
  const bump = jest.fn<DataGeneration['bump']>().mockResolvedValue(undefined);
  const generations = { bump } as unknown as DataGeneration;
  let nowMs = 0;
  const clock: Clock = { now: () => new Date(nowMs) };
  const cacheWith = (ttlMs: number) => new ReadCache(generations, clock, { getOrThrow: () => ({ ttlMs }) } as unknown as ConfigService);
  /** A cache that has seen `generation` and holds `key` under it. */
  const holding = async (ttlMs: number, generation: number, key: string, n: number) => {
    const cache = cacheWith(ttlMs);
    cache.get(generation, key);
    await cache.load(generation, key, loaded(n));
    return cache;
  };

  /** A load of `key` that finishes when the test says. */
  const pendingLoad = (cache: ReadCache, generation: number, key: string) => {
    let finish!: (answer: CachedAnswer) => void;
    const answer = cache.load(generation, key, () => new Promise((resolve) => (finish = resolve)));
    return { answer, finish: (n: number) => finish(page(n)) };
  };

  beforeEach(() => {
    nowMs = Date.parse('2027-03-01T12:00:00Z');
    bump.mockClear();
  });

  it('serves what it loaded for the same generation, for at most the time to live', async () => {
    const cache = await holding(1_000, 7, 'a', 1);
    expect(cache.get(7, 'a')).toEqual(page(1));
    nowMs += 999;
    expect(cache.get(7, 'a')).toEqual(page(1));
    nowMs += 1;
    expect(cache.get(7, 'a')).toBeUndefined();
  });

  it('forgets everything when another generation is read, older or newer', async () => {
    const cache = await holding(1_000, 7, 'a', 1);
    expect(cache.get(8, 'a')).toBeUndefined();
    expect(cache.get(7, 'a')).toBeUndefined();
  });

  it('drops a read that finished after the generation moved on', async () => {
    const cache = cacheWith(1_000);
    cache.get(7, 'a');
    const reading = pendingLoad(cache, 7, 'a');
    cache.get(8, 'b');
    reading.finish(1);
    await expect(reading.answer).resolves.toEqual(page(1));
    expect(cache.get(8, 'a')).toBeUndefined();
  });

  it('loads once for every request that misses the same entry at the same time', async () => {
    const cache = cacheWith(1_000);
    cache.get(7, 'a');
    const load = jest.fn(() => new Promise<CachedAnswer>((resolve) => setTimeout(() => resolve(page(1)), 10)));
    const answers = await Promise.all(Array.from({ length: 50 }, () => cache.load(7, 'a', load)));
    expect(load).toHaveBeenCalledTimes(1);
    expect(answers).toEqual(Array(50).fill(page(1)));
  });

  it('answers the requests that joined a failed load with its failure, without loading again', async () => {
    const cache = cacheWith(1_000);
    cache.get(7, 'a');
    const again = jest.fn(loaded(2));
    const failing = cache.load(7, 'a', () => Promise.reject(new Error('database down')));
    const waiting = cache.load(7, 'a', again);
    await expect(failing).rejects.toThrow('database down');
    await expect(waiting).rejects.toThrow('database down');
    expect(again).not.toHaveBeenCalled();
    await expect(cache.load(7, 'a', loaded(3))).resolves.toEqual(page(3));
  });

  it('holds a bounded number of entries, the oldest going first', async () => {
    const cache = await holding(60_000, 1, 'k0', 0);
    for (let n = 1; n <= READ_CACHE_ENTRIES; n += 1) await cache.load(1, `k${n}`, loaded(n));
    expect(cache.get(1, 'k0')).toBeUndefined();
    expect(cache.get(1, 'k1')).toEqual(page(1));
    expect(cache.get(1, `k${READ_CACHE_ENTRIES}`)).toEqual(page(READ_CACHE_ENTRIES));
  });

  it('keeps nothing when its time to live is 0', async () => {
    const cache = await holding(0, 1, 'a', 1);
    expect(cache.enabled).toBe(false);
    expect(cache.get(1, 'a')).toBeUndefined();
  });

  it('after a write, keeps nothing a load begun before it read, and starts requests on a new load', async () => {
    const cache = cacheWith(1_000);
    cache.get(7, 'a');
    const stale = pendingLoad(cache, 7, 'a');
    await cache.changed(); // say its generation bump failed: the generation is still 7
    cache.get(7, 'a');
    const fresh = cache.load(7, 'a', loaded(2));
    stale.finish(1);
    await expect(stale.answer).resolves.toEqual(page(1));
    await expect(fresh).resolves.toEqual(page(2));
    expect(cache.get(7, 'a')).toEqual(page(2));
  });

  it('after a write, forgets its entries and moves the generation on', async () => {
    const cache = await holding(1_000, 7, 'a', 1);
    await cache.changed();
    expect(bump).toHaveBeenCalledTimes(1);
    expect(cache.get(7, 'a')).toBeUndefined();
  });
});
