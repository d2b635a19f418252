import { Gauge } from 'prom-client';
import type { Metrics } from './metrics.js';

/**
 * Removes the gauge series of connections, and of a connection's entities, that the config no longer
 * has (a config reload removed them). Their gauges would otherwise keep their last values for the life
 * of the process, and the alerts on them (a last success growing stale, a vendor down, drift found)
 * would fire for a connection nobody syncs any more. Counters and histograms stay: they stop growing,
 * which is what `rate()` and `increase()` then show.
 */
export async function dropUnconfiguredSeries(
  metrics: Metrics,
  connections: ReadonlyArray<{ id: string; entities: readonly string[] }>,
): Promise<void> {
  const entities = new Map(connections.map((c) => [c.id, new Set<string>(c.entities)]));
  for (const metric of Object.values(metrics)) {
    if (!(metric instanceof Gauge)) continue;
    const gauge = metric as Gauge<string>;
    for (const { labels } of (await gauge.get()).values) {
      if (labels.connection === undefined) continue;
      const known = entities.get(String(labels.connection));
      if (!known || (labels.entity !== undefined && !known.has(String(labels.entity)))) gauge.remove(labels);
    }
  }
}
