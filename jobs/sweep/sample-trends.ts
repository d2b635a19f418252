import type { Runtime } from '../runtime.js';

/**
 * One sample of a connection's trend series (src/pipeline/trend-buckets.ts), from what the worker
 * already keeps: the quota's rolling minute and day counts, the freshness samples of the last hour and
 * the quarantine's size. Redis reads only, never the vendor.
 */
export async function sampleTrends(
  rt: Pick<Runtime, 'quotas' | 'freshness' | 'quarantine' | 'trends'>,
  connection: string,
  now = Date.now(),
): Promise<void> {
  const used = await rt.quotas.usage(connection);
  const freshness = await rt.freshness.read(connection, now);
  await rt.trends.record(
    connection,
    {
      callsMinute: used.minute,
      callsDay: used.day,
      freshnessP99: freshness.p99Seconds,
      quarantine: await rt.quarantine.count(connection),
    },
    now,
  );
}
