import type { ChangeEntity, RecordedChange } from '../kit/change-feed.js';
import { hmacSha256Base64 } from '../kit/hmac-signature.js';
import type { PayloadContext, WebhookDelivery, WebhookVendor } from '../kit/webhook-vendor.js';

/**
 * Xero's webhooks as the emulator sends them. https://developer.xero.com/documentation/guides/webhooks/overview/
 *
 * - `POST <url>/webhooks/xero`, `x-xero-signature` = base64 HMAC-SHA256 of the raw body with the webhook key
 *   (https://developer.xero.com/documentation/guides/webhooks/configuring-your-server/).
 * - One payload carries every event of a window, for every organisation connected to the app:
 *   `{events: [...], firstEventSequence, lastEventSequence, entropy}`; `eventDateUtc` in UTC without an
 *   offset, as Xero prints it (`2020-08-25T08:20:45.878`). Xero documents no batch size: 100 events here.
 * - eventType CREATE or UPDATE only (a void, delete or archive is an UPDATE); eventCategory INVOICE,
 *   CONTACT, and CREDITNOTE for credit notes.
 * - Intent to receive: when a subscription is set up, correctly and incorrectly signed payloads with no
 *   events; the receiver must answer 200 and 401, within 5 s, or the subscription is not activated.
 * - A failed delivery is retried "with decreasing frequency for up to 24 hours", then the webhook is
 *   disabled. Xero publishes no intervals: the emulator's schedule below adds up to 24 hours.
 */
const MAX_EVENTS = 100;
const MINUTE = 60_000;
const RETRY_MINUTES = [1, 2, 5, 10, 20, 40, 60, 120, 240, 480, 462];

const CATEGORY: Record<ChangeEntity, { category: string; collection: string }> = {
  invoices: { category: 'INVOICE', collection: 'Invoices' },
  'credit-notes': { category: 'CREDITNOTE', collection: 'CreditNotes' },
  customers: { category: 'CONTACT', collection: 'Contacts' },
};

/** Xero's event date: UTC, milliseconds, no offset. */
const xeroUtc = (ms: number) => new Date(ms).toISOString().replace(/Z$/, '');

export function xeroWebhooks(apiBase: () => string): WebhookVendor {
  let sequence = 0;
  const signed = (payload: unknown, key: string, events: number): WebhookDelivery => {
    const body = JSON.stringify(payload);
    return { path: '/webhooks/xero', headers: { 'x-xero-signature': hmacSha256Base64(body, key) }, body, events };
  };
  const entropy = (ctx: PayloadContext) => ctx.random.letters(20);
  return {
    name: 'xero',
    retryDelaysMs: RETRY_MINUTES.map((m) => m * MINUTE),
    repeatLastDelay: false,
    ordered: false,
    onExhausted: 'disable',
    timeoutMs: 5_000,
    deliveries(changes, ctx) {
      const out: WebhookDelivery[] = [];
      for (let i = 0; i < changes.length; i += MAX_EVENTS) {
        const chunk = changes.slice(i, i + MAX_EVENTS);
        const first = sequence + 1;
        sequence += chunk.length;
        const events = chunk.map((c) => xeroEvent(c, apiBase()));
        const payload = { events, firstEventSequence: first, lastEventSequence: sequence, entropy: entropy(ctx) };
        out.push(signed(payload, ctx.settings.secret, events.length));
      }
      return out;
    },
    handshake(ctx) {
      const empty = () => ({ events: [], lastEventSequence: 0, firstEventSequence: 0, entropy: entropy(ctx) });
      const wrongKey = `${ctx.settings.secret}:${ctx.random.hex(16)}`;
      return [
        { delivery: signed(empty(), ctx.settings.secret, 0), expect: 200 },
        { delivery: signed(empty(), wrongKey, 0), expect: 401 },
        { delivery: signed(empty(), wrongKey, 0), expect: 401 },
        { delivery: signed(empty(), ctx.settings.secret, 0), expect: 200 },
      ];
    },
  };
}

function xeroEvent(c: RecordedChange, apiBase: string): Record<string, string> {
  const { category, collection } = CATEGORY[c.entity];
  return {
    resourceUrl: `${apiBase}/${collection}/${c.id}`,
    resourceId: c.id,
    eventDateUtc: xeroUtc(c.modifiedAt),
    eventType: c.op === 'create' ? 'CREATE' : 'UPDATE',
    eventCategory: category,
    tenantId: c.organisation,
    tenantType: 'ORGANISATION',
  };
}
