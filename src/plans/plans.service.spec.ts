import { PlanRuleError } from './plan.errors.js';
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

  it('accepts a fixed plan without limits and an enterprise plan with both', () => {
    expect(plans.validate('pro', {})).toEqual({ plan: 'pro' });
    expect(plans.validate('enterprise', { perMinute: 10, perDay: 5 })).toEqual({
      plan: 'enterprise',
      limits: { perMinute: 10, perDay: 5 },
    });
  });

  it.each([
    ['an unknown plan', 'gold', {}],
    ['limits on a fixed plan', 'free', { perMinute: 10 }],
    ['enterprise without limits', 'enterprise', {}],
    ['enterprise with one limit', 'enterprise', { perDay: 10 }],
    ['a zero limit', 'enterprise', { perMinute: 0, perDay: 10 }],
    ['a fractional limit', 'enterprise', { perMinute: 1.5, perDay: 10 }],
  ])('refuses %s', (_case, plan, custom) => {
    expect(() => plans.validate(plan, custom)).toThrow(PlanRuleError);
  });
});
