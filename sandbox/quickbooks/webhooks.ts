import type { ChangeEntity, ChangeOp, RecordedChange } from '../kit/change-feed.js';
import { hmacSha256Base64 } from '../kit/hmac-signature.js';
import type { PayloadContext, WebhookDelivery, WebhookVendor } from '../kit/webhook-vendor.js';

/**
 * QuickBooks Online webhooks as the emulator sends them.
 * https://developer.intuit.com/app/developer/qbo/docs/develop/webhooks
 *
 * - `POST <url>/webhooks/quickbooks`, `intuit-signature` = base64 HMAC-SHA256 of the raw body with the
 *   app's verifier token.
 * - CloudEvents by default (mandatory for every app since 2026): a JSON array of events `{specversion,
 *   id, source, type: "qbo.<entity>.<created|updated|deleted|voided>.v1", datacontenttype, time,
 *   intuitentityid, intuitaccountid (the realm), data: {}}`; the older format on request:
 *   `{eventNotifications: [{realmId, dataChangeEvent: {entities: [{name, id, operation, lastUpdated}]}}]}`.
 *   Both from https://blogs.intuit.com/2025/11/12/upcoming-change-to-webhooks-payload-structure/
 * - "Event notifications are sent one realm ID at a time": one delivery per realm per window.
 * - Answer 200 within 3 s; a failed event is retried at 10 s, 20 s, 30 s, 5 min, 20 min, 2 h, 4 h, 6 h,
 *   then every 6 h, and "you may not receive subsequent events until you correctly acknowledge the
 *   first": later deliveries wait behind it.
 *   https://developer.intuit.com/app/developer/qbo/docs/develop/webhooks/best-practices
 */
const SECOND = 1000;
const RETRY_MS = [10, 20, 30, 300, 1200, 7200, 14400, 21600].map((s) => s * SECOND);

const ENTITY: Record<ChangeEntity, { name: string; type: string }> = {
  invoices: { name: 'Invoice', type: 'invoice' },
  'credit-notes': { name: 'CreditMemo', type: 'creditmemo' },
  customers: { name: 'Customer', type: 'customer' },
};
const OPERATION: Record<ChangeOp, { legacy: string; verb: string }> = {
  create: { legacy: 'Create', verb: 'created' },
  edit: { legacy: 'Update', verb: 'updated' },
  void: { legacy: 'Void', verb: 'voided' },
  delete: { legacy: 'Delete', verb: 'deleted' },
};

export const QBO_WEBHOOK_FORMATS = ['cloudevents', 'legacy'] as const;

export function quickBooksWebhooks(): WebhookVendor {
  return {
    name: 'quickbooks',
    retryDelaysMs: RETRY_MS,
    repeatLastDelay: true,
    ordered: true,
    onExhausted: 'drop',
    timeoutMs: 3_000,
    check: (s) =>
      s.format === null || (QBO_WEBHOOK_FORMATS as readonly string[]).includes(s.format)
        ? undefined
        : `format: expected one of ${QBO_WEBHOOK_FORMATS.join(', ')}`,
    deliveries(changes, ctx) {
      const byRealm = new Map<string, RecordedChange[]>();
      for (const c of changes) byRealm.set(c.organisation, [...(byRealm.get(c.organisation) ?? []), c]);
      return [...byRealm].map(([realm, cs]) => {
        const payload = ctx.settings.format === 'legacy' ? legacy(realm, cs) : cs.map((c) => cloudEvent(c, ctx));
        return sign(JSON.stringify(payload), ctx.settings.secret, cs.length);
      });
    },
  };
}

function sign(body: string, verifierToken: string, events: number): WebhookDelivery {
  return {
    path: '/webhooks/quickbooks',
    headers: { 'intuit-signature': hmacSha256Base64(body, verifierToken) },
    body,
    events,
  };
}

function cloudEvent(c: RecordedChange, ctx: PayloadContext): Record<string, unknown> {
  return {
    specversion: '1.0',
    id: ctx.random.uuid(),
    source: `intuit.${Buffer.from(`erp-sync-sandbox:${c.organisation}`).toString('base64')}`,
    type: `qbo.${ENTITY[c.entity].type}.${OPERATION[c.op].verb}.v1`,
    datacontenttype: 'application/json',
    time: new Date(c.modifiedAt).toISOString(),
    intuitentityid: c.id,
    intuitaccountid: c.organisation,
    data: {},
  };
}

function legacy(realm: string, cs: readonly RecordedChange[]): Record<string, unknown> {
  return {
    eventNotifications: [
      {
        realmId: realm,
        dataChangeEvent: {
          entities: cs.map((c) => ({
            name: ENTITY[c.entity].name,
            id: c.id,
            operation: OPERATION[c.op].legacy,
            lastUpdated: new Date(c.modifiedAt).toISOString(),
          })),
        },
      },
    ],
  };
}
