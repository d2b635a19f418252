import type { FreshnessView } from '../src/pipeline/freshness-samples.js';

/** A connection's change → billing percentiles on one line, as `connections` and `status` print them. */
export function freshnessLine(f: FreshnessView): string {
  const window = `last ${f.windowSeconds / 60} min`;
  if (f.samples === 0) return `no change written to billing in the ${window}`;
  const slow = f.p99Seconds !== null && f.p99Seconds > f.alertAboveSeconds;
  return `change → billing p50 ${f.p50Seconds} s, p99 ${f.p99Seconds} s (${f.samples} change(s), ${window})${slow ? `, p99 above the alert's ${f.alertAboveSeconds} s` : ''}`;
}
