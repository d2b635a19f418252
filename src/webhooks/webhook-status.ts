import type { ConnectionConfig } from '../config.js';
import type { WebhookHealth } from '../pipeline/webhook-health.js';

const iso = (ms: number | undefined): string | null => (ms ? new Date(ms).toISOString() : null);

/** What `connections` and `status` show of a connection's webhooks (null: it has none configured). */
export interface WebhooksView {
  /** `webhooks`: deliveries carry the changes and the pull is a safety net; `polling`: the short schedule. */
  mode: 'webhooks' | 'polling';
  /** Why it polls on the short schedule, when it does. */
  reason: string | null;
  /** The incremental pull's interval now, in seconds. */
  pullEverySeconds: number;
  firstDelivery: string | null;
  lastDelivery: string | null;
  /** Changes safety-net pulls found that no delivery announced, over the current streak. */
  missed: number;
  /** Since when deliveries missed too many changes (back on the short schedule). */
  degradedSince: string | null;
}

export async function webhooksView(
  health: Pick<WebhookHealth, 'read'>,
  c: Pick<ConnectionConfig, 'id' | 'webhooks' | 'schedule'>,
): Promise<WebhooksView | null> {
  if (!c.webhooks) return null;
  const h = await health.read(c.id);
  const reason = h.healthy
    ? null
    : h.degradedSince
      ? `deliveries missed ${h.missed} change(s) the safety-net pulls found: back on the short schedule`
      : 'no delivery received yet';
  return {
    mode: h.healthy ? 'webhooks' : 'polling',
    reason,
    pullEverySeconds: h.healthy ? c.schedule.withWebhooksEverySeconds : c.schedule.everySeconds,
    firstDelivery: iso(h.firstDelivery),
    lastDelivery: iso(h.lastDelivery),
    missed: h.missed,
    degradedSince: iso(h.degradedSince),
  };
}
