import { CLIENT_NAME_MAX_LENGTH, clientName, ClientNotFoundError, limitsFor, planChoice, PlanRuleError } from './plan-catalogue.js';

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

  it('names the limits as the caller calls them: the admin API fields by default, the CLI options when given', () => {
    expect(() => planChoice('enterprise', {})).toThrow('The enterprise plan needs both perMinute and perDay.');
    expect(() => planChoice('enterprise', {}, { perMinute: '--per-minute', perDay: '--per-day' })).toThrow(
      'The enterprise plan needs both --per-minute and --per-day.',
    );
    expect(() => planChoice('free', { perDay: 3 })).toThrow(
      'The free plan has fixed limits; perMinute and perDay are only for enterprise.',
    );
    expect(() => planChoice('enterprise', { perMinute: 1, perDay: 0 })).toThrow('perDay must be a positive integer.');
  });

  it('trims a client name and keeps it up to the column length', () => {
    expect(clientName('  Acme  ')).toBe('Acme');
    expect(clientName('x'.repeat(CLIENT_NAME_MAX_LENGTH))).toHaveLength(200);
  });

  it.each(['', '   ', 'x'.repeat(201)])('refuses the client name %p', (name) => {
    expect(() => clientName(name)).toThrow(/A client name must be 1 to 200 characters/);
  });
});

describe('the plans module errors', () => {
  it('answer 400 validation_failed and 404 not_found, with the messages the command-line tool prints', () => {
    expect(new PlanRuleError('Unknown plan "gold".').toBody()).toEqual({
      code: 'validation_failed',
      message: 'Unknown plan "gold".',
      status: 400,
    });
    expect(new ClientNotFoundError(9).toBody()).toEqual({ code: 'not_found', message: 'No client with id 9.', status: 404 });
  });
});
