// The statistics every printed figure goes through: medians over the rounds, their spread, and
// ratios taken round by round, so a ratio only ever compares two loads seconds apart.

/** The median of the finite values (the mean of the middle two for an even count); NaN for none. */
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

/** The median of the finite values with the lowest and the highest: the spread over the rounds. */
export function spread(values) {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return { median: NaN, min: NaN, max: NaN };
  return { median: median(finite), min: Math.min(...finite), max: Math.max(...finite) };
}

/**
 * `measure` of `a` over `measure` of `b`, round by round (the i-th round of each); NaN for a round
 * one of them lacks. The summary of a comparison is the spread of these, never a ratio of medians.
 */
export function perRoundRatios(a, b, measure) {
  const rounds = Math.max(a.length, b.length);
  return Array.from({ length: rounds }, (_, i) => (a[i] && b[i] ? a[i][measure] / b[i][measure] : NaN));
}
