import type { Clock } from '../../common/index.js';
import { ThrottledAddresses, UNFAMILIAR_LOOKUPS_PER_MINUTE } from './throttled-addresses.js';

describe('ThrottledAddresses', () => {
  const T0 = Date.parse('2027-01-01T00:00:00Z');
  let nowMs = T0;
  const at = (ms: number) => (nowMs = T0 + ms);
  const clock: Clock = { now: () => new Date(nowMs) };
  let throttled: ThrottledAddresses;

  beforeEach(() => {
    at(0);
    throttled = new ThrottledAddresses(clock);
  });

  it('lets an address that was never refused look keys up', () => {
    expect(throttled.isRefused('203.0.113.1')).toBe(false);
    expect(throttled.mayLookUp('203.0.113.1')).toBe(true);
  });

  it('remembers a refused address until its refusal ends', () => {
    throttled.refuse('203.0.113.1', 60_000);
    at(60_000);
    expect(throttled.isRefused('203.0.113.1')).toBe(true);
    at(60_001);
    expect(throttled.isRefused('203.0.113.1')).toBe(false);
  });

  it('lets a refused address look up a few unfamiliar keys a minute, until its refusal ends', () => {
    throttled.refuse('203.0.113.1', 120_000);
    at(1_000);
    const firstMinute = Array.from({ length: UNFAMILIAR_LOOKUPS_PER_MINUTE + 5 }, () => throttled.mayLookUp('203.0.113.1'));
    expect(firstMinute.filter(Boolean)).toHaveLength(UNFAMILIAR_LOOKUPS_PER_MINUTE);
    expect(throttled.mayLookUp('203.0.113.2')).toBe(true);
    at(60_000);
    for (let i = 0; i < UNFAMILIAR_LOOKUPS_PER_MINUTE; i++) expect(throttled.mayLookUp('203.0.113.1')).toBe(true);
    expect(throttled.mayLookUp('203.0.113.1')).toBe(false);
    at(120_001);
    expect(throttled.mayLookUp('203.0.113.1')).toBe(true);
  });

  it('keeps the spent lookups when a refusal is renewed within the minute', () => {
    throttled.refuse('203.0.113.1', 60_000);
    at(1_000);
    for (let i = 0; i < UNFAMILIAR_LOOKUPS_PER_MINUTE; i++) throttled.mayLookUp('203.0.113.1');
    at(2_000);
    throttled.refuse('203.0.113.1', 58_000);
    at(3_000);
    expect(throttled.mayLookUp('203.0.113.1')).toBe(false);
  });
});
