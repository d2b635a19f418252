/**
 * A test's size, and its benchmark size. A large-scale case runs in the suite at the size that proves its
 * property (page boundaries crossed, jobs in flight at a kill); the same file run with the variable set runs
 * it at full size, as a benchmark (docs/benchmarks.md names each variable and its full size):
 *
 *   ERPSYNC_SCALE_KILL9_INVOICES=1500 npx vitest run test/reliability/kill-worker-mid-backfill.test.ts
 */
export function testScale(name: string, suiteSize: number): number {
  const raw = process.env[`ERPSYNC_SCALE_${name}`];
  if (raw === undefined || raw === '') return suiteSize;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`ERPSYNC_SCALE_${name}: expected a positive integer, got "${raw}"`);
  return n;
}
