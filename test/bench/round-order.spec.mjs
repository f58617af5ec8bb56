import { describe, expect, it } from '@jest/globals';
import { roundOrder, roundPlan } from '../../bench/lib/round-order.mjs';

describe('roundOrder', () => {
  const servers = ['ceiling', 'usual-build', 'service', 'baseline'];

  it('loads the servers as given in odd rounds and reversed in even ones', () => {
    expect(roundOrder(servers, 1)).toEqual(servers);
    expect(roundOrder(servers, 2)).toEqual(['baseline', 'service', 'usual-build', 'ceiling']);
    expect(roundOrder(servers, 3)).toEqual(servers);
  });

  it('leaves the given order alone', () => {
    roundOrder(servers, 2);
    expect(servers).toEqual(['ceiling', 'usual-build', 'service', 'baseline']);
  });
});

describe('roundPlan', () => {
  const ceiling = { name: 'ceiling', endpoints: ['list'] };
  const service = { name: 'service', endpoints: ['list', 'create'] };
  const baseline = { name: 'baseline', endpoints: ['list', 'create'] };
  const plan = (round, endpoints = ['list', 'create']) =>
    roundPlan([ceiling, service, baseline], endpoints, round).map(({ server, endpoint }) => `${server.name}:${endpoint}`);

  it('loads endpoint by endpoint, each on the servers that serve it, in the round’s order', () => {
    expect(plan(1)).toEqual(['ceiling:list', 'service:list', 'baseline:list', 'service:create', 'baseline:create']);
    expect(plan(2)).toEqual(['baseline:list', 'service:list', 'ceiling:list', 'baseline:create', 'service:create']);
  });

  it('loads only the endpoints asked for', () => {
    expect(plan(1, ['create'])).toEqual(['service:create', 'baseline:create']);
  });
});
