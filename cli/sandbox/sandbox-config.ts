import type { RunningBilling } from './billing-sandbox.js';
import type { Running } from './start-emulator.js';
import { connectionWebhooks, type WebhookWiring } from './webhook-wiring.js';

/**
 * The worker's top-level `webhooks` section: where its listener takes the sandboxes' deliveries. (The keys
 * are those of the worker's config schema for webhook ingress.)
 */
export function webhooksSection(w: WebhookWiring): string[] {
  return ['webhooks:', `  port: ${w.port}`, `  host: ${w.host}`];
}

/** A config that points every connection at the running sandboxes (for `erp-sync worker`). */
export function sandboxConfig(
  billing: RunningBilling,
  erps: ReadonlyArray<Running & { system: string }>,
  webhooks?: WebhookWiring,
): string {
  return [
    '# erp-sync config for the running sandboxes (save as erp-sync.yaml)',
    'billing:',
    `  url: ${billing.url}`,
    `  apiKey: ${billing.keys[0]!.key}`,
    `  attachmentKey: ${billing.attachmentKeys[0]!.key}`,
    '  baseCurrency: INR',
    ...(webhooks ? webhooksSection(webhooks) : []),
    'connections:',
    ...erps.flatMap((r) => r.configEntry(webhooks && connectionWebhooks(webhooks, r.system))),
  ].join('\n');
}
