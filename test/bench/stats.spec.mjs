import { describe, expect, it } from '@jest/globals';
import { median, percentile, perRoundRatios, spread } from '../../bench/lib/stats.mjs';

describe('median', () => {
  it('is the middle value of an odd count and the mean of the middle two of an even one', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('leaves out what is not a finite number, and is NaN without any', () => {
    expect(median([NaN, 5, Infinity, 1, 3])).toBe(3);
    expect(median([])).toBeNaN();
    expect(median([NaN])).toBeNaN();
  });
});

describe('percentile', () => {
  it('takes the nearest rank of sorted values', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });
});

describe('spread', () => {
  it('is the median with the lowest and highest finite value', () => {
    expect(spread([1.2, 0.9, NaN, 1.05])).toEqual({ median: 1.05, min: 0.9, max: 1.2 });
    expect(spread([])).toEqual({ median: NaN, min: NaN, max: NaN });
  });
});

describe('perRoundRatios', () => {
  it('divides round by round, so the median of the ratios is not the ratio of the medians', () => {
    const service = [{ rps: 100 }, { rps: 200 }, { rps: 400 }];
    const peer = [{ rps: 100 }, { rps: 50 }, { rps: 400 }];
    const ratios = perRoundRatios(service, peer, 'rps');
    expect(ratios).toEqual([1, 4, 1]);
    expect(median(ratios)).toBe(1);
    expect(median([100, 200, 400]) / median([100, 50, 400])).toBe(2);
    expect(spread(perRoundRatios([{ rps: 90 }, { rps: 120 }], [{ rps: 100 }, { rps: 100 }], 'rps'))).toEqual({
      median: 1.05,
      min: 0.9,
      max: 1.2,
    });
  });

  it('gives NaN for a round one side lacks', () => {
    expect(perRoundRatios([{ cpu: 1 }, { cpu: 2 }], [{ cpu: 2 }], 'cpu')).toEqual([0.5, NaN]);
  });
});
