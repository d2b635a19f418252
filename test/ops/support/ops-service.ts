import type { HarnessOptions } from '../../support/harness.js';

/**
 * The ops tests' harness options: the real service (schedulers, workers, /metrics, the queue UI) pulling
 * 20 invoices every 5 s, so its gauges and logs fill on their own; few attempts, a short grace.
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
    sync: { backoffMs: 100, attempts: 3, graceSeconds: 5 },
    ...extra,
    service: extra.service ?? {},
  };
}
