import type { LimiterFacts } from './limiter.store.js';
import { decide } from './rate-limit.decision.js';

const now = Date.parse('2027-03-01T12:00:10.250Z');
const minuteEnd = Date.parse('2027-03-01T12:01:00Z') / 1000;
const dayEnd = Date.parse('2027-03-02T00:00:00Z') / 1000;
const limits = { perMinute: 60, perDay: 1_000 };
const facts = (overrides: Partial<LimiterFacts>): LimiterFacts => ({
  outcome: 'admitted',
  store: 'redis',
  usedMinute: 1,
  usedDay: 1,
  nowMs: now,
  suspendedUntilMs: 0,
  ...overrides,
});

describe('decide', () => {
  it('shows the minute window on a tie or when it has less left, with both windows in the policy', () => {
    expect(decide(facts({}), limits)).toEqual({
      outcome: 'admitted',
      headers: {
        'X-RateLimit-Limit': '60',
        'X-RateLimit-Remaining': '59',
        'X-RateLimit-Reset': String(minuteEnd),
        'RateLimit-Policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
        RateLimit: '"minute";r=59;t=50',
      },
    });
    expect(decide(facts({ usedMinute: 5, usedDay: 5 }), { perMinute: 10, perDay: 10 }).headers['RateLimit']).toBe('"minute";r=5;t=50');
  });

  it('shows the day window when it has less left', () => {
    const { headers } = decide(facts({ usedMinute: 1, usedDay: 990 }), limits);
    expect(headers).toMatchObject({ 'X-RateLimit-Limit': '1000', 'X-RateLimit-Remaining': '10', 'X-RateLimit-Reset': String(dayEnd) });
    expect(headers.RateLimit).toBe(`"day";r=10;t=${Math.ceil(dayEnd - now / 1000)}`);
  });

  it('on a reading, shows the room left now and names no Retry-After, even with a window full', () => {
    const decision = decide(facts({ outcome: 'read', usedMinute: 60, usedDay: 100 }), limits);
    expect(decision.retryAfterSeconds).toBeUndefined();
    expect(decision.headers).toMatchObject({ 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(minuteEnd) });
  });

  it('on a minute refusal, names the minute with Retry-After in whole seconds, rounded up', () => {
    const decision = decide(facts({ outcome: 'refused', usedMinute: 60, usedDay: 100 }), limits);
    expect(decision.retryAfterSeconds).toBe(50);
    expect(decision.headers).toMatchObject({ 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(minuteEnd) });
  });

  it('on a refusal with both windows full, names the day, which resets last', () => {
    const decision = decide(facts({ outcome: 'refused', usedMinute: 60, usedDay: 1_000 }), limits);
    expect(decision.headers['X-RateLimit-Reset']).toBe(String(dayEnd));
    expect(decision.retryAfterSeconds).toBe(Math.ceil(dayEnd - now / 1000));
  });

  it('gives at least one second of Retry-After at the very end of a window', () => {
    const decision = decide(facts({ outcome: 'refused', usedMinute: 60, nowMs: Date.parse('2027-03-01T12:00:59.999Z') }), limits);
    expect(decision.retryAfterSeconds).toBe(1);
  });

  it('during a suspension shows the minute limit, nothing remaining, and the end of the suspension', () => {
    const until = now + 600_000;
    const decision = decide(facts({ outcome: 'suspended', suspendedUntilMs: until }), limits);
    expect(decision.retryAfterSeconds).toBe(600);
    expect(decision.headers).toMatchObject({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(Math.ceil(until / 1000)),
    });
  });

  it('never reports a negative remainder', () => {
    expect(decide(facts({ outcome: 'refused', usedMinute: 75 }), limits).headers['X-RateLimit-Remaining']).toBe('0');
  });
});
