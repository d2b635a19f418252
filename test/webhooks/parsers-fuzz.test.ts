import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhooks as quickbooks } from '../../connectors/quickbooks/webhooks.js';
import { webhooks as xero } from '../../connectors/xero/webhooks.js';
import { webhooks as zohoBooks } from '../../connectors/zoho-books/webhooks.js';
import { ENTITY_NAMES } from '../../src/connector/entities.js';
import { MalformedDeliveryError, WEBHOOK_OPS } from '../../src/webhooks/webhook-event.js';
import { dropPrefix, TEST_REDIS_URL } from '../support/redis.js';
import {
  listenerHarness,
  type ListenerHarness,
  QBO_TOKEN,
  sign,
  XERO_APP_KEY,
  ZOHO_SECRET,
} from './listener-harness.js';

/**
 * No input crashes a parser or the listener: any body either parses into well-formed events or is
 * refused as malformed (400), and the listener answers every request and goes on answering.
 */
const PARSERS = [
  ['xero', xero],
  ['quickbooks', quickbooks],
  ['zoho-books', zohoBooks],
] as const;

/** JSON shaped like each vendor's bodies, with any values in the fields, or anything at all. */
const vendorish = fc.oneof(
  fc.record({
    events: fc.array(
      fc.record(
        {
          resourceId: fc.anything(),
          tenantId: fc.anything(),
          eventCategory: fc.constantFrom('INVOICE', 'CONTACT', 'CREDITNOTE', 'X', 7),
          eventDateUtc: fc.anything(),
        },
        { requiredKeys: [] },
      ),
    ),
  }),
  fc.array(
    fc.record(
      {
        type: fc.oneof(
          fc.string(),
          fc.constantFrom('qbo.invoice.voided.v1', 'qbo.customer.deleted.v1', 'qbo..', 'qbo'),
        ),
        intuitentityid: fc.anything(),
        intuitaccountid: fc.anything(),
        time: fc.anything(),
      },
      { requiredKeys: [] },
    ),
  ),
  fc.record({ eventNotifications: fc.array(fc.record({ realmId: fc.anything(), dataChangeEvent: fc.anything() })) }),
  fc.record(
    { invoice: fc.anything(), invoice_id: fc.anything(), contact_id: fc.anything(), last_modified_time: fc.anything() },
    { requiredKeys: [] },
  ),
  fc.anything(),
);
const bodies = fc.oneof(
  vendorish.map((v) => Buffer.from(JSON.stringify(v) ?? 'undefined')),
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
  fc.string().map((s) => Buffer.from(s)),
);
const queries = fc.record({
  module: fc.constantFrom('invoices', 'creditnotes', 'contacts', '', 'bills'),
  event: fc.constantFrom('created', 'edited', 'deleted', '', 'x'),
});

describe.each(PARSERS)('the %s parser', (_name, hooks) => {
  it('given any body, then it returns well-formed events or throws MalformedDeliveryError, nothing else', () => {
    fc.assert(
      fc.property(bodies, queries, (body, q) => {
        let parsed;
        try {
          parsed = hooks.parse(body, new URLSearchParams(q));
        } catch (e) {
          expect(e).toBeInstanceOf(MalformedDeliveryError);
          return;
        }
        if (parsed.kind === 'intent') return;
        for (const e of parsed.events) {
          expect(ENTITY_NAMES).toContain(e.entity);
          expect(WEBHOOK_OPS).toContain(e.op);
          expect(typeof e.id === 'string' && e.id.length > 0).toBe(true);
          if (e.at !== undefined) expect(new Date(e.at).toISOString()).toBe(e.at);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('given any signature header, then verify answers false without throwing', () => {
    fc.assert(
      fc.property(bodies, fc.string(), (body, header) => {
        const headers = { 'x-xero-signature': header, 'intuit-signature': header, 'x-erp-sync-secret': header };
        expect(hooks.verify(body, headers, 'the-configured-secret')).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});

describe('the listener under fuzzed deliveries', () => {
  let h: ListenerHarness;
  beforeAll(async () => {
    h = await listenerHarness(TEST_REDIS_URL, 64 * 1024);
  });
  afterAll(async () => {
    await h?.close();
    await dropPrefix(h.redis, h.prefix);
    h?.redis.disconnect();
  });

  it('given correctly signed arbitrary bodies on every route, then each is answered 200, 400 or 413, and the listener still answers', async () => {
    await fc.assert(
      fc.asyncProperty(bodies, queries, fc.constantFrom('xero', 'quickbooks', 'zoho'), async (body, q, vendor) => {
        const raw = body;
        const [path, headers] =
          vendor === 'xero'
            ? ['/webhooks/xero', { 'x-xero-signature': sign(raw, XERO_APP_KEY) }]
            : vendor === 'quickbooks'
              ? ['/webhooks/quickbooks', { 'intuit-signature': sign(raw, QBO_TOKEN) }]
              : [`/webhooks/zoho-books/zoho?${new URLSearchParams(q)}`, { 'x-erp-sync-secret': ZOHO_SECRET }];
        const res = await fetch(`${h.url}${path}`, { method: 'POST', headers, body: raw });
        await res.arrayBuffer();
        expect([200, 400, 413]).toContain(res.status);
      }),
      { numRuns: 150 },
    );
    const intent = JSON.stringify({ events: [], firstEventSequence: 0, lastEventSequence: 0, entropy: 'x' });
    expect((await h.post('/webhooks/xero', intent, { 'x-xero-signature': sign(intent, XERO_APP_KEY) })).status).toBe(
      200,
    );
  }, 60_000);
});
