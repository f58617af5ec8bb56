import { dateTime, utcInstant, waitOf } from './format.js';

describe('format', () => {
  it('rounds a wait up, in seconds under two minutes, then minutes, then hours and minutes', () => {
    expect([0.2, 119, 120, 7_140, 7_141, 86_399].map(waitOf)).toEqual(['1 s', '119 s', '2 min', '119 min', '2 h 0 min', '24 h 0 min']);
    expect(waitOf(-3)).toBe('0 s');
  });

  it('gives an instant in UTC, with its day when that is not today', () => {
    const now = new Date('2026-11-28T23:59:00Z');
    expect(utcInstant(new Date('2026-11-28T23:59:30Z'), now)).toBe('23:59:30 UTC');
    expect(utcInstant(new Date('2026-11-29T00:00:00Z'), now)).toBe('2026-11-29 00:00:00 UTC');
  });

  it('shows an API timestamp to the minute, or a dash for none', () => {
    expect(dateTime('2026-11-28T03:57:34.729Z')).toBe('2026-11-28 03:57 UTC');
    expect(dateTime(null)).toBe('—');
  });
});
