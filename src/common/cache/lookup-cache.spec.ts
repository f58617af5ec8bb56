import type { Clock } from '../clock/clock.js';
import { LookupCache } from './lookup-cache.js';

const unavailable = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('LookupCache', () => {
  // lru-cache takes a start time of 0 for none, so the tests' time starts later.
  const T0 = Date.parse('2027-01-01T00:00:00Z');
  let nowMs = T0;
  const clock: Clock = { now: () => new Date(nowMs) };
  const cache = (freshMs = 1_000) => new LookupCache<string, number>(clock, { max: 2, freshMs, staleMs: 60_000 });
  const found = (value: number | null) => () => Promise.resolve(value);
  const failing = (error: Error) => () => Promise.reject(error);

  beforeEach(() => (nowMs = T0));

  it('reuses an answer, a miss too, for its fresh time, then looks up again', async () => {
    const lookups = cache();
    await expect(lookups.get('a', found(1))).resolves.toBe(1);
    await expect(lookups.get('b', found(null))).resolves.toBeNull();
    nowMs = T0 + 1_000;
    await expect(lookups.get('a', found(2))).resolves.toBe(1);
    await expect(lookups.get('b', found(3))).resolves.toBeNull();
    nowMs = T0 + 1_001;
    await expect(lookups.get('a', found(2))).resolves.toBe(2);
  });

  it('shares one lookup between concurrent misses', async () => {
    const lookups = cache();
    let calls = 0;
    const counted = () => Promise.resolve(++calls);
    await expect(Promise.all([lookups.get('a', counted), lookups.get('a', counted)])).resolves.toEqual([1, 1]);
  });

  it('looks up every time when nothing is fresh for long (0)', async () => {
    const lookups = cache(0);
    await lookups.get('a', found(1));
    await expect(lookups.get('a', found(2))).resolves.toBe(2);
  });

  it('answers a value found within the stale time while the database is unavailable, and nothing older', async () => {
    const lookups = cache();
    await lookups.get('a', found(1));
    nowMs = T0 + 59_999;
    await expect(lookups.get('a', failing(unavailable))).resolves.toBe(1);
    nowMs = T0 + 61_000;
    await expect(lookups.get('a', failing(unavailable))).rejects.toBe(unavailable);
  });

  it('fails as the lookup failed for any other error, for an unknown key, and after a miss', async () => {
    const lookups = cache();
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
    await lookups.get('a', found(1));
    await lookups.get('b', found(null));
    nowMs = T0 + 2_000;
    await expect(lookups.get('a', failing(bug))).rejects.toBe(bug);
    await expect(lookups.get('b', failing(unavailable))).rejects.toBe(unavailable);
    await expect(lookups.get('c', failing(unavailable))).rejects.toBe(unavailable);
  });

  it('is familiar with a fresh answer and with a value found lately, and holds at most `max` keys', async () => {
    const lookups = cache();
    await lookups.get('a', found(1));
    await lookups.get('b', found(null));
    nowMs = T0 + 2_000;
    expect([lookups.isFamiliar('a'), lookups.isFamiliar('b'), lookups.isFamiliar('c')]).toEqual([true, false, false]);
    await lookups.get('c', found(3));
    await lookups.get('d', found(4));
    expect(lookups.isFamiliar('a')).toBe(false);
  });
});
