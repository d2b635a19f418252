import { describe, expect, it } from 'vitest';
import { toCreditNote } from '../../../../connectors/zoho-books/map/credit-note.js';
import { toCustomer } from '../../../../connectors/zoho-books/map/customer.js';
import { toInvoice } from '../../../../connectors/zoho-books/map/invoice.js';
import { expectExpectedBody } from '../../support/expected-body.js';
import { mapContext, record } from '../fixtures.js';

/**
 * Every fixture with a full expected body: test/fixtures/zoho-books/<fixture>.json (the detail response)
 * with the organisation's lookups → the mapper → exactly <fixture>.expected.json, field for field and in
 * the same key order (the bytes billing receives), without warnings. The tests beside this one each assert one rule on a
 * changed copy of a fixture.
 */
/** Each fixture is the detail response of its kind: the name's first word says which (and so the mapper). */
const KINDS = {
  invoice: { key: 'invoice', map: toInvoice },
  credit: { key: 'creditnote', map: toCreditNote },
  contact: { key: 'contact', map: toCustomer },
} as const;

const CASES: ReadonlyArray<readonly [fixture: string, shows: string]> = [
  [
    'invoice-intra-state',
    'India intra-state (a Zoho sample invoice): CGST 9 + SGST 9 from the GST18 group, partially paid',
  ],
  ['invoice-inter-state-igst', 'inter-state: IGST 18 on each line, paise rounded per line'],
  [
    'invoice-usd-in-inr-org',
    'USD in an INR organisation: exchange_rate 83.125 checked against bcy_total, item discount',
  ],
  ['invoice-partially-paid', 'partially paid with payment, credits and a write-off'],
  ['invoice-void', 'void: mapped, with metaData.sourceStatus "void"'],
  ['invoice-entity-discount-before-tax', 'entity-level 10 % discount before tax, shipping, adjustment and round-off'],
  [
    'invoice-einvoiced-tds',
    'India e-invoice (IRN, ack, QR link) with TDS 10 % withheld, a reporting tag, custom fields and a salesperson',
  ],
  ['invoice-reverse-charge', 'reverse charge: the supplier collects no GST, the buyer pays 5 % (CGST + SGST)'],
  ['credit-note-two-invoices', 'applied to two invoices, listed by billing invoiceId and number'],
  ['contact-business', 'a business customer with two contact persons: the primary first, GSTIN, addresses, status'],
];

describe('Zoho Books fixtures → the expected billing bodies (test/fixtures/zoho-books/*.expected.json)', () => {
  it.each(CASES)('given %s (%s), then the body is exactly the expected one', (fixture) => {
    const { key, map } = KINDS[fixture.split('-')[0] as keyof typeof KINDS];
    expect(expectExpectedBody(map(record(fixture, key), mapContext()), 'zoho-books', fixture)).toEqual([]);
  });
});
