import type { WebhookEvent } from './webhook-event.js';
import type { WebhookTarget } from './webhook-target.js';

/**
 * A verified delivery's events by connection: each event goes to every connection signed by a key that
 * verified the delivery and holding the organisation it names (a connection routed by its address gets
 * all of them). An event no such connection holds is unrouted; one of an entity the connection does not
 * sync is dropped (it was never going to be read).
 */
export function routeDelivery(
  events: readonly WebhookEvent[],
  verified: readonly WebhookTarget[],
): { byConnection: Map<string, WebhookEvent[]>; unrouted: number } {
  const byConnection = new Map<string, WebhookEvent[]>();
  let unrouted = 0;
  for (const e of events) {
    const holders = verified.filter((t) => t.routeKey === undefined || t.routeKey === e.routeKey);
    if (!holders.length) unrouted++;
    for (const t of holders) {
      if (!t.entities.includes(e.entity)) continue;
      const list = byConnection.get(t.connectionId) ?? [];
      list.push(e);
      byConnection.set(t.connectionId, list);
    }
  }
  return { byConnection, unrouted };
}
