import { BillingClient } from '../../src/billing/client.js';
import type { BillingTarget } from '../../src/billing/billing-target.js';
import type { AppConfig } from '../../src/config.js';
import { type Metrics, statusClass } from '../../src/observability/metrics.js';
import type { BillingBudget } from '../../src/pipeline/billing-budget.js';

/**
 * The billing client of a pair of keys, made once: connections of one billing company share it.
 * With one budget for the deployment every request of every process takes its slot (per key, upsert
 * jobs and reconciliation take their key's slot themselves).
 */
export function billingClients(config: AppConfig, metrics: Metrics, billingBudget: Pick<BillingBudget, 'take'>) {
  const perKey = config.billing.rateLimit.scope === 'key';
  const made = new Map<string, BillingClient>();
  return (t: Pick<BillingTarget, 'apiKey' | 'attachmentKey'>): BillingClient => {
    const id = JSON.stringify([t.apiKey, t.attachmentKey ?? null]);
    let client = made.get(id);
    if (client) return client;
    client = new BillingClient({
      baseUrl: config.billing.url,
      apiKey: t.apiKey,
      attachmentKey: t.attachmentKey,
      timeoutMs: config.billing.timeoutMs,
      pace: perKey ? undefined : (signal) => billingBudget.take(signal),
      onResponse: ({ endpoint, status, durationMs }) => {
        metrics.billingRequests.inc({ endpoint, status_class: statusClass(status) });
        metrics.billingRequestDuration.observe({ endpoint }, durationMs / 1000);
        if (status === 429) metrics.rateLimited.inc({ target: 'billing' });
      },
    });
    made.set(id, client);
    return client;
  };
}
