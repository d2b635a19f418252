import type { Metrics } from '../../src/observability/metrics.js';
import type { FreshnessSamples } from '../../src/pipeline/freshness-samples.js';
import type { UpsertState } from '../../src/pipeline/upsert-state.js';
import type { UpsertJobData } from '../catalog.js';
import { pathOf, type SettlingJob } from './upsert-history.js';

/** The paths a change reaches billing by that freshness is measured for (a backfill or a replay is no change). */
const MEASURED = new Set(['webhook', 'poll', 'repair']);

/** Where a written change's latency goes: the process's histogram, and the samples every process shares. */
export interface FreshnessSinks {
  metrics: Pick<Metrics, 'changeToBilling'>;
  freshness?: Pick<FreshnessSamples, 'add'>;
}

/**
 * Freshness: once SETTLE confirms a record's write (billing answered 2xx and the ledger took the version),
 * the time from the source's modification of the version written to now, in
 * `erpsync_change_to_billing_seconds{connection, entity, path}`. The path is the payload's (a webhook's
 * read by id, a repair), else a poll. A version in the future (vendor clock ahead) counts as 0. The job's
 * latencies also go to the connection's shared samples (one pipelined round trip per settle with any), whose
 * failure never fails a write billing already took.
 */
export function withChangeToBilling(
  sinks: FreshnessSinks,
  state: Pick<UpsertState, 'settleMany'>,
  job: SettlingJob,
  records: readonly UpsertJobData[],
): Pick<UpsertState, 'settleMany'> {
  const payloads = new Map<string, UpsertJobData>();
  for (const r of records) if (!payloads.has(r.erpId)) payloads.set(r.erpId, r);
  return {
    async settleMany(connection, entity, settled, owner, jobId) {
      const written = await state.settleMany(connection, entity, settled, owner, jobId);
      const now = Date.now();
      const latencies: number[] = [];
      for (const [i, { erpId, settlement }] of settled.entries()) {
        const payload = payloads.get(erpId);
        if (settlement.outcome !== 'written' || !written[i] || !payload) continue;
        const path = pathOf(payload, job);
        const changedAt = Date.parse(payload.version);
        if (!MEASURED.has(path) || !Number.isFinite(changedAt)) continue;
        const seconds = Math.max(0, now - changedAt) / 1000;
        sinks.metrics.changeToBilling.observe({ connection, entity, path }, seconds);
        latencies.push(seconds);
      }
      await sinks.freshness?.add(connection, latencies, now).catch(() => undefined);
      return written;
    },
  };
}
