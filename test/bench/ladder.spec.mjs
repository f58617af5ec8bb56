import { describe, expect, it } from '@jest/globals';
import { ladderCells, whatEachChangeBought } from '../../bench/lib/ladder-summary.mjs';
import { parseLadder, withLadder } from '../../bench/lib/ladder.mjs';

describe('parseLadder (BENCH_LADDER)', () => {
  it('reads comma-separated <git-rev>=<label> steps in order, the label running to the end of its entry', () => {
    expect(parseLadder(' b80dfde=before, HEAD~2=+page cache ,HEAD~1=a=b')).toEqual([
      { rev: 'b80dfde', label: 'before' },
      { rev: 'HEAD~2', label: '+page cache' },
      { rev: 'HEAD~1', label: 'a=b' },
    ]);
  });

  it('reads nothing from an empty value', () => {
    expect(parseLadder('')).toEqual([]);
    expect(parseLadder(' , ')).toEqual([]);
  });

  it.each(['b80dfde', '=before', 'HEAD~1= '])('refuses %j, naming it', (entry) => {
    expect(() => parseLadder(`HEAD~2=ok,${entry}`)).toThrow(`BENCH_LADDER: "${entry.trim()}" is not <git-rev>=<label>`);
  });
});

describe('withLadder', () => {
  it('puts the steps right before B, so each round loads them, B and P one after the other', () => {
    const servers = (names) => names.map((server) => ({ server }));
    const order = withLadder(servers(['ceiling', 'postgres', 'peer', 'sqlite']), servers(['ladder-1', 'ladder-2']));
    expect(order.map((d) => d.server)).toEqual(['ceiling', 'ladder-1', 'ladder-2', 'postgres', 'peer', 'sqlite']);
  });
});

describe('whatEachChangeBought', () => {
  const endpoints = { list: 'GET /v1/pets?limit=20', get: 'GET /v1/pets/{id}', create: 'POST /v1/pets' };
  /** A throughput row whose medians are the middle round's figures. */
  const row = (server, endpointKey, rps, p99) => ({
    server,
    endpointKey,
    endpoint: endpoints[endpointKey],
    rps: rps[1],
    p50: p99[1] / 2,
    p99: p99[1],
    cpuMsPerRequest: 0.3,
    rounds: rps.map((r, i) => ({ rps: r, p99: p99[i] })),
  });
  const throughput = [
    row('ceiling', 'list', [5000, 5000, 5000], [5, 5, 5]),
    row('ladder-1', 'list', [1000, 1100, 1200], [20, 22, 30]),
    row('ladder-1', 'get', [2000, 2000, 2000], [10, 10, 10]),
    row('ladder-1', 'create', [800, 800, 800], [40, 40, 40]),
    row('postgres', 'list', [1500, 1100, 1800], [10, 22, 15]),
    row('postgres', 'get', [2200, 2400, 2000], [10, 10, 10]),
    row('postgres', 'create', [800, 900, 1000], [40, 40, 40]),
    row('peer', 'list', [1000, 1000, 1000], [20, 20, 20]),
  ];
  const ladder = [
    { server: 'ladder-1', endpoints: ['list', 'get', 'create'], step: { rev: 'HEAD~1', label: 'before', commit: 'b80dfde' } },
  ];
  const rows = whatEachChangeBought(throughput, ladder);

  it('gives one row per step, the ladder’s then B, for each endpoint in the order the steps serve them', () => {
    expect(rows?.map((r) => [r.endpointKey, r.step, r.commit])).toEqual([
      ['list', 'before', 'b80dfde'],
      ['list', 'now (B)', 'this checkout'],
      ['get', 'before', 'b80dfde'],
      ['get', 'now (B)', 'this checkout'],
      ['create', 'before', 'b80dfde'],
      ['create', 'now (B)', 'this checkout'],
    ]);
  });

  it('compares each step with the one before and with P round by round: the median of the per-round ratios and their range', () => {
    const [before, now] = rows ?? [];
    expect(before.vsPrevious).toEqual({ rps: undefined, p99: undefined });
    expect(before.vsPeer.rps).toEqual({ median: 1.1, min: 1, max: 1.2 });
    expect(now.vsPrevious.rps).toEqual({ median: 1.5, min: 1, max: 1.5 });
    expect(now.vsPrevious.p99).toEqual({ median: 0.5, min: 0.5, max: 1 });
    expect(now.vsPeer.rps).toEqual({ median: 1.5, min: 1.1, max: 1.8 });
    expect(now.vsPeer.p99).toEqual({ median: 0.75, min: 0.5, max: 1.1 });
  });

  it('has no ratio to P on the endpoints P does not serve', () => {
    for (const r of rows?.filter((r) => r.endpointKey !== 'list') ?? []) expect(r.vsPeer).toEqual({ rps: undefined, p99: undefined });
  });

  it('prints medians and each ratio as "median (lowest–highest round)"', () => {
    expect(ladderCells(rows ?? [])[1]).toEqual([
      'now (B)',
      'this checkout',
      'GET /v1/pets?limit=20',
      '1,100',
      '11.00',
      '22.00',
      '0.300',
      '1.50 (1.00–1.50)',
      '0.50 (0.50–1.00)',
      '1.50 (1.10–1.80)',
      '0.75 (0.50–1.10)',
    ]);
  });

  it('is undefined when no ladder ran', () => {
    expect(whatEachChangeBought(throughput, [])).toBeUndefined();
  });
});
