import type { IncomingHttpHeaders } from 'node:http';
import type { EntityName } from '../../src/connector/entities.js';
import {
  type ConnectorWebhooks,
  deliveryJson,
  MalformedDeliveryError,
  type WebhookOp,
} from '../../src/webhooks/webhook-event.js';
import { headerValue, isoInstant, sharedSecretMatches } from '../../src/webhooks/verify-signature.js';
import type { Settings } from './settings.js';

/**
 * Zoho Books webhooks (connectors/zoho-books/README.md, "Webhooks"): a workflow rule per module whose
 * action is a webhook posting the record's fields as JSON
 * (https://www.zoho.com/books/help/settings/automation/workflow-actions/webhooks.html). Zoho does not sign
 * it: the user sets a custom header `X-Erp-Sync-Secret` to the connection's secret, and URL parameters
 * `module` (invoices, creditnotes, contacts) and `event` (created, edited, deleted). The address names
 * the connection: `/webhooks/zoho-books/<connection>`.
 *
 * Only the id, the event and the modification time are taken from the body: the record is read by id
 * like any other change. The body's fields are whatever the user chose to send (a workflow may post a
 * custom body), and a read costs one call either way, once per coalesced batch.
 */
const MODULES: Record<string, { entity: EntityName; key: string; idField: string }> = {
  invoices: { entity: 'invoices', key: 'invoice', idField: 'invoice_id' },
  creditnotes: { entity: 'credit-notes', key: 'creditnote', idField: 'creditnote_id' },
  contacts: { entity: 'customers', key: 'contact', idField: 'contact_id' },
};
const EVENTS: Record<string, WebhookOp> = { created: 'change', edited: 'change', deleted: 'delete' };

export const webhooks: ConnectorWebhooks<Settings> = {
  path: 'zoho-books',
  routedBy: 'connection',
  verify: (_body, headers, secret) => secretHeaderMatches(headers, secret),
  verifyHeaders: (headers, secret) => secretHeaderMatches(headers, secret),
  parse(body, query) {
    const module = MODULES[query.get('module') ?? ''];
    const op = EVENTS[query.get('event') ?? ''];
    if (!module || !op)
      throw new MalformedDeliveryError(
        'the webhook URL needs the parameters module=invoices|creditnotes|contacts and event=created|edited|deleted',
      );
    const record = recordOf(deliveryJson(body), module.key);
    const id = record?.[module.idField];
    if (typeof id !== 'string' && typeof id !== 'number')
      throw new MalformedDeliveryError(`the body has no ${module.idField}`);
    // Large ids arrive as their digits (deliveryJson); a number left here that is not a whole, exact one
    // (written as 4.6e17, say) would be read as another record: refused, the safety net reads the change.
    if (typeof id === 'number' && !Number.isSafeInteger(id))
      throw new MalformedDeliveryError(
        `the body's ${module.idField} is a number that cannot be read exactly; send it as digits or as text`,
      );
    const at =
      isoInstant(record?.last_modified_time, 'last_modified_time') ?? isoInstant(record?.updated_time, 'updated_time');
    return { kind: 'events', events: [{ entity: module.entity, id: String(id), op, ...(at ? { at } : {}) }] };
  },
};

/** The custom header Zoho sends as the user set it: the whole authentication (Zoho does not sign the body). */
const secretHeaderMatches = (headers: IncomingHttpHeaders, secret: string): boolean =>
  sharedSecretMatches(headerValue(headers, 'x-erp-sync-secret'), secret);

/** The record's fields: the body itself, or wrapped under the module's key (`{"invoice": {…}}`). */
function recordOf(json: unknown, key: string): Record<string, unknown> | undefined {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const o = json as Record<string, unknown>;
  const inner = o[key];
  return inner && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Record<string, unknown>) : o;
}
