import type { Usage } from '../../client/src/index.js';
import { dailySeries, keysWithUsage } from './usage-days.js';

const rows: Array<[day: string, keyId: number, admitted: number, refused: number]> = [
  ['2026-02-27', 7, 5, 1],
  ['2026-03-01', 3, 10, 0],
  ['2026-03-01', 7, 2, 4],
];
const usage: Usage = {
  from: '2026-02-27',
  to: '2026-03-02',
  days: rows.map(([day, keyId, admitted, refused]) => ({ day, keyId, admitted, refused })),
  totals: { admitted: 17, refused: 5 },
};

describe('dailySeries', () => {
  it('has every UTC day of the period, across a month end, a day without requests as 0, summed over all keys', () => {
    expect(dailySeries(usage)).toEqual({
      days: ['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02'],
      admitted: [5, 0, 12, 0],
      refused: [1, 0, 4, 0],
    });
  });

  it('keeps one key’s figures when given its id', () => {
    expect(dailySeries(usage, 7)).toEqual({
      days: ['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02'],
      admitted: [5, 0, 2, 0],
      refused: [1, 0, 4, 0],
    });
    expect(dailySeries(usage, 99).admitted).toEqual([0, 0, 0, 0]);
  });

  it('lists the keys with requests once each, in id order', () => {
    expect(keysWithUsage(usage)).toEqual([3, 7]);
  });
});
