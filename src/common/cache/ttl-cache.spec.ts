import { TtlCache } from './ttl-cache.js';

describe('TtlCache', () => {
  it('returns a value until its time to live has passed', () => {
    const cache = new TtlCache<string, number>(1_000, 10);
    cache.set('a', 1, 0);
    expect(cache.get('a', 999)).toBe(1);
    expect(cache.get('a', 1_000)).toBeUndefined();
  });

  it('caches null as a value (a known miss)', () => {
    const cache = new TtlCache<string, null>(1_000, 10);
    cache.set('a', null, 0);
    expect(cache.get('a', 1)).toBeNull();
  });

  it('evicts the oldest entry when full', () => {
    const cache = new TtlCache<string, number>(1_000, 2);
    cache.set('a', 1, 0);
    cache.set('b', 2, 0);
    cache.set('c', 3, 0);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('b', 1)).toBe(2);
    expect(cache.get('c', 1)).toBe(3);
  });

  it('keeps nothing when the time to live is zero', () => {
    const cache = new TtlCache<string, number>(0, 2);
    cache.set('a', 1, 0);
    expect(cache.get('a', 0)).toBeUndefined();
  });

  it('lets an entry live its own time to live, and forgets a deleted one', () => {
    const cache = new TtlCache<string, number>(1_000, 10);
    cache.set('a', 1, 0, 5_000);
    cache.set('b', 2, 0);
    expect(cache.get('a', 4_999)).toBe(1);
    cache.delete('b');
    expect(cache.get('b', 1)).toBeUndefined();
  });
});
