import type { IncomingHttpHeaders } from 'node:http';
import type { EntityName } from '../connector/entities.js';

/**
 * What a vendor's webhook delivery announces, once verified and parsed (connectors/<vendor>/webhooks.ts).
 * A delivery only says which record changed: the record itself is read by id afterwards
 * (jobs/pull/read-announced.ts), outside the request, under the connection's quotas.
 */
export type WebhookOp = 'change' | 'void' | 'delete';
export const WEBHOOK_OPS: readonly WebhookOp[] = ['change', 'void', 'delete'];

export interface WebhookEvent {
  /**
   * The organisation the event belongs to, as the connection's settings name it (Xero tenantId,
   * QuickBooks realmId); absent where the address names the connection (Zoho Books).
   */
  routeKey?: string;
  entity: EntityName;
  /** The ERP's own id of the record. */
  id: string;
  /** `change`: created or edited (read it); `void`: voided (read it: the read says so); `delete`: gone. */
  op: WebhookOp;
  /** When the change happened at the vendor (UTC ISO, ms), where the delivery says. */
  at?: string;
}

/** A verified delivery: Xero's intent-to-receive (no events), or its events (possibly none we sync). */
export type ParsedDelivery = { kind: 'intent' } | { kind: 'events'; events: WebhookEvent[] };

/** A delivery whose body is not what the vendor sends: answered 400. The message names no value from it. */
export class MalformedDeliveryError extends Error {
  override name = 'MalformedDeliveryError';
}

/**
 * A delivery's body as JSON, or a MalformedDeliveryError (answered 400) that quotes nothing of it.
 * An integer too large for a double (Zoho's record ids have 18–19 digits and its docs print them as JSON
 * numbers) is kept as its own digits, a string, never rounded to a neighbouring id.
 */
export function deliveryJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'), keepLargeIntegers);
  } catch {
    throw new MalformedDeliveryError('the body is not JSON');
  }
}

/** A JSON.parse reviver: an integer literal beyond 2^53 becomes the text it was written as (the parse's source access). */
function keepLargeIntegers(this: unknown, _key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value !== 'number' || Number.isSafeInteger(value)) return value;
  const source = context?.source;
  return source !== undefined && /^-?\d+$/.test(source) ? source : value;
}

/**
 * A connector's webhooks: how a delivery is authenticated and what it announces. The listener
 * (src/webhooks/webhook-listener.ts) verifies first, against each distinct configured secret, and parses
 * only a delivery that one of them signed.
 */
export interface ConnectorWebhooks<Settings = unknown> {
  /** The vendor's name in the route: `/webhooks/<path>` (Zoho: `/webhooks/<path>/<connection>`). */
  path: string;
  /** Whether the route names the connection (Zoho) or the delivery names the organisation (Xero, QuickBooks). */
  routedBy: 'organisation' | 'connection';
  /** The organisation a connection's deliveries name (tenantId, realmId); for `routedBy: organisation`. */
  routeKey?(settings: Settings): string;
  /** True when `secret` authenticates the raw body with these headers; constant time, never throws. */
  verify(body: Buffer, headers: IncomingHttpHeaders, secret: string): boolean;
  /**
   * For a vendor whose deliveries are authenticated by a header alone (Zoho's secret header): the same check
   * on the headers, which the listener makes before it reads a byte of the body.
   */
  verifyHeaders?(headers: IncomingHttpHeaders, secret: string): boolean;
  /** The delivery's events; throws MalformedDeliveryError for a body the vendor would not send. */
  parse(body: Buffer, query: URLSearchParams): ParsedDelivery;
}
