import { PlanRuleError } from './plan.errors.js';
import { CLIENT_NAME_MAX_LENGTH, clientName, planChoice } from './plan-rules.js';

describe('plan rules', () => {
  it('accepts a fixed plan without limits and an enterprise plan with both', () => {
    expect(planChoice('pro', {})).toEqual({ plan: 'pro' });
    expect(planChoice('enterprise', { perMinute: 10, perDay: 5 })).toEqual({
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
    expect(() => planChoice(plan, custom)).toThrow(PlanRuleError);
  });

  it('trims a client name and keeps it up to the column length', () => {
    expect(clientName('  Acme  ')).toBe('Acme');
    expect(clientName('x'.repeat(CLIENT_NAME_MAX_LENGTH))).toHaveLength(200);
  });

  it.each(['', '   ', 'x'.repeat(201)])('refuses the client name %p', (name) => {
    expect(() => clientName(name)).toThrow(/A client name must be 1 to 200 characters/);
  });
});
