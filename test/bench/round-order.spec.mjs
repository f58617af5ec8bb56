import { describe, expect, it } from '@jest/globals';
import { roundOrder } from '../../bench/lib/round-order.mjs';

describe('roundOrder', () => {
  const servers = ['before', 'step', 'service', 'peer'];

  it('loads the servers as given in odd rounds and reversed in even ones', () => {
    expect(roundOrder(servers, 1)).toEqual(servers);
    expect(roundOrder(servers, 2)).toEqual(['peer', 'service', 'step', 'before']);
    expect(roundOrder(servers, 3)).toEqual(servers);
  });

  it('leaves the given order alone', () => {
    roundOrder(servers, 2);
    expect(servers).toEqual(['before', 'step', 'service', 'peer']);
  });
});
