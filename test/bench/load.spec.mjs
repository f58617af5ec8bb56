import { describe, expect, it } from '@jest/globals';
import { summarise } from '../../bench/lib/load.mjs';

const slice = (ok, seconds, cpuMs, latencies, failed = 0) => ({ ok, seconds, cpuMs, failed, latencies });

describe('summarise', () => {
  it('counts a load over all its slices: answers over their time, CPU over their answers, percentiles over every timing', () => {
    const figures = summarise([slice(1000, 1, 150, [1, 2, 3]), slice(3000, 1, 450, [4, 5, 90]), slice(2000, 1, 300, [6])]);
    expect(figures.rps).toBe(2000);
    expect(figures.cpu).toBeCloseTo(0.15);
    expect(figures.p50).toBe(4);
    expect(figures.p99).toBe(90);
  });

  it('adds up the answers other than 2xx, and gives NaN for CPU per request when nothing was answered', () => {
    const figures = summarise([slice(0, 1, 20, [], 7), slice(0, 1, 20, [], 5)]);
    expect(figures.failed).toBe(12);
    expect(figures.rps).toBe(0);
    expect(figures.cpu).toBeNaN();
    expect(figures.p99).toBeNaN();
  });
});
