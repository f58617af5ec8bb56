import { ThrottledAddresses, UNFAMILIAR_LOOKUPS_PER_MINUTE } from './throttled-addresses.js';

describe('ThrottledAddresses', () => {
  it('lets an address that was never refused look keys up', () => {
    const throttled = new ThrottledAddresses();
    expect(throttled.isRefused('203.0.113.1', 0)).toBe(false);
    expect(throttled.mayLookUp('203.0.113.1', 0)).toBe(true);
  });

  it('remembers a refused address until its refusal ends', () => {
    const throttled = new ThrottledAddresses();
    throttled.refuse('203.0.113.1', 0, 60_000);
    expect(throttled.isRefused('203.0.113.1', 59_999)).toBe(true);
    expect(throttled.isRefused('203.0.113.1', 60_000)).toBe(false);
  });

  it('lets a refused address look up a few unfamiliar keys a minute, until its refusal ends', () => {
    const throttled = new ThrottledAddresses();
    throttled.refuse('203.0.113.1', 0, 120_000);
    const firstMinute = Array.from({ length: UNFAMILIAR_LOOKUPS_PER_MINUTE + 5 }, () => throttled.mayLookUp('203.0.113.1', 1_000));
    expect(firstMinute.filter(Boolean)).toHaveLength(UNFAMILIAR_LOOKUPS_PER_MINUTE);
    expect(throttled.mayLookUp('203.0.113.1', 60_000)).toBe(true);
    expect(throttled.mayLookUp('203.0.113.2', 1_000)).toBe(true);
    for (let i = 0; i < UNFAMILIAR_LOOKUPS_PER_MINUTE; i++) throttled.mayLookUp('203.0.113.1', 60_000);
    expect(throttled.mayLookUp('203.0.113.1', 60_000)).toBe(false);
    expect(throttled.mayLookUp('203.0.113.1', 120_000)).toBe(true);
  });

  it('keeps the spent lookups when a refusal is renewed within the minute', () => {
    const throttled = new ThrottledAddresses();
    throttled.refuse('203.0.113.1', 0, 60_000);
    for (let i = 0; i < UNFAMILIAR_LOOKUPS_PER_MINUTE; i++) throttled.mayLookUp('203.0.113.1', 1_000);
    throttled.refuse('203.0.113.1', 2_000, 58_000);
    expect(throttled.mayLookUp('203.0.113.1', 3_000)).toBe(false);
  });
});
