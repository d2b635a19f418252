import type { HarnessOptions } from '../../support/harness.js';

/**
 * The ops tests' harness options: the real service (schedulers, workers, /metrics, the queue UI) pulling
 * 20 invoices every 5 s, so its gauges and logs fill on their own; few attempts, a short grace; otherwise
 * the config's defaults.
 */
export function opsService(
  name: string,
  extra: Omit<HarnessOptions, 'name' | 'service'> & { service?: HarnessOptions['service'] } = {},
): HarnessOptions {
  return {
    name: `ops-${name}`,
    invoices: 20,
    everySeconds: 5,
    zoho: { seed: 7 },
    billing: { timeoutMs: 5000 },
    // The service's own defaults where the harness has test values (undefined: the config's default), so
    // the gauges and panels see what a deployment's would: drafts skipped, lookups cached, 30 s locks.
    syncDrafts: false,
    settings: { lookupsCacheSeconds: undefined },
    sync: {
      backoffMs: 100,
      attempts: 3,
      graceSeconds: 5,
      upsertConcurrency: undefined,
      pullConcurrency: undefined,
      backlogHighWater: undefined,
      lockDurationMs: undefined,
      stalledIntervalMs: undefined,
    },
    ...extra,
    service: extra.service ?? {},
  };
}
