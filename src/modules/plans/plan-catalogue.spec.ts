import { limitsFor } from './plan-catalogue.js';

describe('limitsFor', () => {
  it.each([
    ['free', 60, 1_000],
    ['pro', 300, 10_000],
    ['business', 1_000, 100_000],
  ])('gives the %s plan %i/min and %i/day', (plan, perMinute, perDay) => {
    expect(limitsFor(plan)).toEqual({ perMinute, perDay });
  });

  it('gives an enterprise client its own limits', () => {
    expect(limitsFor('enterprise', { perMinuteLimit: 5_000, perDayLimit: 200 })).toEqual({ perMinute: 5_000, perDay: 200 });
  });
});
