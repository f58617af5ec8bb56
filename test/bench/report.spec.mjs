import { describe, expect, it } from '@jest/globals';
import { ratioTable, serverTable, withSpread } from '../../bench/lib/report.mjs';

const round = (rps, p50, p99, cpu, failed = 0) => ({ rps, p50, p99, cpu, failed });
const runs = new Map([
  ['service:list', [round(2000, 2, 10, 0.2), round(1800, 2.5, 12, 0.25), round(2200, 1.5, 8, 0.18, 3)]],
  ['usual-build:list', [round(500, 8, 40, 0.8), round(600, 7, 30, 0.7), round(550, 7.5, 35, 0.75)]],
]);

describe('the printed tables', () => {
  it('write a median with the lowest and highest round, and n/a for a missing figure', () => {
    expect(withSpread([3, 1, 2], (v) => v.toFixed(1))).toBe('2.0 (1.0–3.0)');
    expect(withSpread([], (v) => v.toFixed(1))).toBe('n/a (n/a–n/a)');
  });

  it('give each server and endpoint its medians over the rounds and its failed requests', () => {
    const table = serverTable([{ name: 'service', label: 'service', endpoints: ['list'] }], runs);
    expect(table.split('\n')[2]).toBe(
      '| service | list | 2,000 (1,800–2,200) | 2.00 (1.50–2.50) | 10.00 (8.00–12.00) | 0.200 (0.180–0.250) | 3 |',
    );
  });

  it('give each ratio per round and as the median of those', () => {
    const comparison = { label: 'service / usual build', a: 'service', b: 'usual-build', endpoints: ['list'], measures: ['rps', 'cpu'] };
    expect(ratioTable([comparison], runs).split('\n').slice(2)).toEqual([
      '| service / usual build | list | req/s | 4.00 3.00 4.00 | 4.00 (3.00–4.00) |',
      '| service / usual build | list | CPU/req | 0.25 0.36 0.24 | 0.25 (0.24–0.36) |',
    ]);
  });
});
