import { describe, expect, it } from '@jest/globals';
import { memoryGrowth } from '../../bench/phases/memory.mjs';

const MiB = 2 ** 20;
/** Marks as the memory phase records them: RSS at the end of each chunk and its lowest during it. */
const marks = (pairs) => pairs.map(([rss, rssLow]) => ({ rss: rss * MiB, rssLow: rssLow * MiB }));

describe('memoryGrowth', () => {
  it('does not count the rise and fall between garbage collections: it compares the lowest RSS of each chunk', () => {
    // The 2026-11-23 19:43 run's RSS after each chunk: 262.7, 207.3, 259.8, 220.8, 256.3 MiB (+23.6 % from the 2nd).
    const oscillating = marks([
      [262.7, 200],
      [207.3, 201],
      [259.8, 199],
      [220.8, 202],
      [256.3, 200],
    ]);
    expect(memoryGrowth(oscillating)).toBeCloseTo(-0.005, 3);
  });

  it('reports memory that is kept: the lowest RSS rising chunk after chunk', () => {
    const leaking = marks([
      [250, 200],
      [260, 210],
      [270, 220],
      [280, 230],
      [290, 240],
    ]);
    expect(memoryGrowth(leaking)).toBeCloseTo(30 / 210, 6);
  });

  it('leaves out the first chunk, the heap growing to its working size, unless it is the only one', () => {
    expect(
      memoryGrowth(
        marks([
          [300, 100],
          [300, 200],
          [300, 200],
        ]),
      ),
    ).toBe(0);
    expect(memoryGrowth(marks([[300, 100]]))).toBe(0);
  });
});
