import { PlansService } from './plans.service.js';

describe('PlansService', () => {
  const plans = new PlansService();

  it.each([
    ['free', 60, 1_000],
    ['pro', 300, 10_000],
    ['business', 1_000, 100_000],
  ])('gives the %s plan %i/min and %i/day', (plan, perMinute, perDay) => {
    expect(plans.limitsFor({ plan, perMinuteLimit: null, perDayLimit: null })).toEqual({ perMinute, perDay });
  });

  it('gives an enterprise client its own limits', () => {
    expect(plans.limitsFor({ plan: 'enterprise', perMinuteLimit: 5_000, perDayLimit: 200 })).toEqual({ perMinute: 5_000, perDay: 200 });
  });
});
