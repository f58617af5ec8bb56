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

  it('takes each endpoint in slices, the servers in turn, reversed every other slice, so two compared loads interleave', () => {
    const sliced = (round) =>
      roundPlan([ceiling, service, baseline], ['list', 'create'], round, 3).map(
        ({ server, endpoint, slice }) => `${server.name}:${endpoint}:${slice}`,
      );
    expect(sliced(1)).toEqual([
      ...['ceiling:list:0', 'service:list:0', 'baseline:list:0'],
      ...['baseline:list:1', 'service:list:1', 'ceiling:list:1'],
      ...['ceiling:list:2', 'service:list:2', 'baseline:list:2'],
      ...['service:create:0', 'baseline:create:0', 'baseline:create:1', 'service:create:1', 'service:create:2', 'baseline:create:2'],
    ]);
    expect(sliced(2).slice(0, 6)).toEqual([
      ...['baseline:list:0', 'service:list:0', 'ceiling:list:0'],
      ...['ceiling:list:1', 'service:list:1', 'baseline:list:1'],
    ]);
  });
});
