// The statistics the benchmark reports: one median and one percentile rule for every figure.

/**
 * The median of the finite values (NaN, null-turned-NaN and ±Infinity are left out): the middle
 * value of an odd count, the mean of the two middle values of an even count. An empty list (or one
 * with no finite value) has no median: NaN, which the report prints as "n/a".
 * @param {number[]} values
 */
export function median(values) {
  const finite = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (finite.length === 0) return NaN;
  const mid = Math.floor(finite.length / 2);
  return finite.length % 2 ? finite[mid] : (finite[mid - 1] + finite[mid]) / 2;
}

/** The p-th percentile (0..100) of sorted numbers, nearest rank; NaN for an empty list. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** The median of `values` with their lowest and highest (the range over the rounds). */
export const spread = (values) => ({ median: median(values), min: Math.min(...values), max: Math.max(...values) });
