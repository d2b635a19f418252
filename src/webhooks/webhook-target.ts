import type { EntityName, SystemName } from '../connector/entities.js';
import type { ConnectorWebhooks } from './webhook-event.js';

/** A connection that receives webhooks, as the listener sees it (built from the config at each delivery). */
export interface WebhookTarget {
  connectionId: string;
  system: SystemName;
  entities: readonly EntityName[];
  /** The connection's `webhooks.secret`: never logged, never in an error. */
  secret: string;
  /** The organisation its deliveries name (tenantId, realmId); undefined when the address names the connection. */
  routeKey?: string;
  webhooks: ConnectorWebhooks<any>;
}

/** The targets that verify this delivery: each distinct secret checked once, in constant time. */
export function verifiedTargets(
  candidates: readonly WebhookTarget[],
  verify: (target: WebhookTarget) => boolean,
): WebhookTarget[] {
  const bySecret = new Map<string, WebhookTarget[]>();
  for (const t of candidates) bySecret.set(t.secret, [...(bySecret.get(t.secret) ?? []), t]);
  const verified: WebhookTarget[] = [];
  for (const group of bySecret.values()) if (verify(group[0]!)) verified.push(...group);
  return verified;
}
