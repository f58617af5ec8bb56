import { jest } from '@jest/globals';
import type { ApiKeysRepository } from './api-keys.repository.js';
import { IssuedKeysFilter, REFRESH_INTERVAL_MS } from './issued-keys.filter.js';

const hash = (first: string) => first.padEnd(64, '0');
const [KNOWN, LATER, NEVER] = [hash('aaaaaaaaaaaa'), hash('bbbbbbbbbbbb'), hash('cccccccccccc')];
const prefixes = (...hashes: string[]) => hashes.map((h) => h.slice(0, 12));

describe('IssuedKeysFilter', () => {
  const findUnrevokedHashPrefixes = jest.fn<ApiKeysRepository['findUnrevokedHashPrefixes']>();
  let filter: IssuedKeysFilter;

  /** Lets the interval fire and the refresh it started settle. */
  const tick = async (ms = REFRESH_INTERVAL_MS) => {
    await jest.advanceTimersByTimeAsync(ms);
  };

  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2027-03-01T12:00:00Z') });
    findUnrevokedHashPrefixes.mockReset().mockResolvedValue([]);
    filter = new IssuedKeysFilter({ findUnrevokedHashPrefixes } as unknown as ApiKeysRepository);
  });

  afterEach(() => {
    filter.onApplicationShutdown();
    jest.useRealTimers();
  });

  it('loads every unrevoked key on the first question only, and holds no other', async () => {
    findUnrevokedHashPrefixes.mockResolvedValueOnce(prefixes(KNOWN));
    await expect(Promise.all([filter.mightHold(KNOWN), filter.mightHold(NEVER)])).resolves.toEqual([true, false]);
    expect(findUnrevokedHashPrefixes).toHaveBeenCalledTimes(1);
    expect(findUnrevokedHashPrefixes).toHaveBeenCalledWith(12);
  });

  it('asks nothing of the database until asked: the command-line tool never pays for it', async () => {
    await tick(60_000);
    expect(findUnrevokedHashPrefixes).not.toHaveBeenCalled();
  });

  it("holds a key issued here at once, and another replica's within one refresh interval", async () => {
    await filter.mightHold(NEVER);
    filter.add(KNOWN);
    await expect(filter.mightHold(KNOWN)).resolves.toBe(true);
    findUnrevokedHashPrefixes.mockResolvedValue(prefixes(LATER));
    await expect(filter.mightHold(LATER)).resolves.toBe(false);
    await tick();
    await expect(filter.mightHold(LATER)).resolves.toBe(true);
    // A refresh asks for the keys created in the last minute, so a creation that commits late is still found.
    expect(findUnrevokedHashPrefixes).toHaveBeenLastCalledWith(12, new Date(Date.now() - 60_000));
  });

  it('keeps what it knows through a failed refresh and catches up after', async () => {
    findUnrevokedHashPrefixes.mockResolvedValueOnce(prefixes(KNOWN));
    await filter.mightHold(KNOWN);
    findUnrevokedHashPrefixes.mockRejectedValue(new Error('connection refused'));
    await tick(5 * REFRESH_INTERVAL_MS);
    await expect(filter.mightHold(KNOWN)).resolves.toBe(true);
    findUnrevokedHashPrefixes.mockResolvedValue(prefixes(LATER));
    await tick();
    await expect(filter.mightHold(LATER)).resolves.toBe(true);
  });

  it('fails the question when the first load fails, and loads again on the next one', async () => {
    findUnrevokedHashPrefixes.mockRejectedValueOnce(new Error('connection refused')).mockResolvedValueOnce(prefixes(KNOWN));
    await expect(filter.mightHold(KNOWN)).rejects.toThrow('connection refused');
    await expect(filter.mightHold(KNOWN)).resolves.toBe(true);
  });

  it('drops revoked keys at the reload every ten minutes', async () => {
    findUnrevokedHashPrefixes.mockResolvedValueOnce(prefixes(KNOWN, LATER));
    await filter.mightHold(KNOWN);
    findUnrevokedHashPrefixes.mockResolvedValue(prefixes(LATER));
    await tick(10 * 60_000);
    expect(findUnrevokedHashPrefixes).toHaveBeenLastCalledWith(12);
    await expect(Promise.all([filter.mightHold(KNOWN), filter.mightHold(LATER)])).resolves.toEqual([false, true]);
  });

  it('stops polling at shutdown', async () => {
    await filter.mightHold(KNOWN);
    filter.onApplicationShutdown();
    const calls = findUnrevokedHashPrefixes.mock.calls.length;
    await tick(10 * REFRESH_INTERVAL_MS);
    expect(findUnrevokedHashPrefixes).toHaveBeenCalledTimes(calls);
  });
});
