import type { ChangeEntity, ChangeOp } from '../kit/change-feed.js';
import type { WebhookVendor } from '../kit/webhook-vendor.js';

/**
 * Zoho Books webhooks as the emulator sends them: an action of a workflow rule, one rule per module
 * (Invoices, Credit Notes, Contacts), triggered when a record is Created, Edited or Deleted.
 * https://www.zoho.com/books/help/settings/automation/workflow-rules.html
 * https://www.zoho.com/books/help/settings/automation/workflow-actions/webhooks.html
 *
 * - One POST per record and trigger; Zoho batches nothing. The URL is what the user typed:
 *   `<url>/webhooks/zoho-books/<connection>?module=invoices|creditnotes|contacts&event=created|edited|deleted`
 *   (query parameters added on the webhook's "URL & Parameters").
 * - The header `X-Erp-Sync-Secret: <secret>` (a custom header set on the webhook) authenticates it.
 * - The body is the default payload, the record's fields in JSON: here the record as `GET /<module>/{id}`
 *   shows it at the moment of the change (a deleted record as it was). A void is an edit (the status).
 * - Retries: none unless the organisation sets a retry policy on Workflow Logs ("reattempts failed
 *   webhooks at increasing intervals"): `retryDelaysMs` in `/__admin/webhooks` is that policy.
 *   https://www.zoho.com/in/books/help/settings/automation/workflow-logs.html
 */
const MODULE: Record<ChangeEntity, string> = {
  invoices: 'invoices',
  'credit-notes': 'creditnotes',
  customers: 'contacts',
};
const EVENT: Record<ChangeOp, string> = { create: 'created', edit: 'edited', void: 'edited', delete: 'deleted' };

export const ZOHO_SECRET_HEADER = 'X-Erp-Sync-Secret';

export function zohoBooksWebhooks(defaultConnection: string): WebhookVendor {
  return {
    name: 'zoho-books',
    retryDelaysMs: [],
    repeatLastDelay: false,
    ordered: false,
    onExhausted: 'drop',
    timeoutMs: 10_000,
    deliveries(changes, ctx) {
      const connection = encodeURIComponent(ctx.settings.connection ?? defaultConnection);
      return changes.map((c) => ({
        path: `/webhooks/zoho-books/${connection}?module=${MODULE[c.entity]}&event=${EVENT[c.op]}`,
        headers: { [ZOHO_SECRET_HEADER]: ctx.settings.secret },
        body: JSON.stringify(c.record ?? {}),
        events: 1,
      }));
    },
  };
}
