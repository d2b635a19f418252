/**
 * The p-th percentile (0 < p ≤ 100) of `values` by the nearest-rank method: the smallest value at least
 * p % of the values are less than or equal to (https://en.wikipedia.org/wiki/Percentile#The_nearest-rank_method).
 * Always one of the values, never interpolated; null for no values. `values` need not be sorted.
 */
export function percentile(values: readonly number[], p: number): number | null {
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile ${p} is not in (0, 100]`);
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1]!;
}
