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
const CASES = [
  {
    fixture: 'invoice-intra-state',
    key: 'invoice',
    map: toInvoice,
    shows: 'India intra-state (a Zoho sample invoice): CGST 9 + SGST 9 from the GST18 group, partially paid',
  },
  { fixture: 'invoice-inter-state-igst', key: 'invoice', map: toInvoice, shows: 'inter-state: IGST 18 on each line, paise rounded per line' },
  {
    fixture: 'invoice-usd-in-inr-org',
    key: 'invoice',
    map: toInvoice,
    shows: 'USD in an INR organisation: exchange_rate 83.125 checked against bcy_total, item discount',
  },
  { fixture: 'invoice-partially-paid', key: 'invoice', map: toInvoice, shows: 'partially paid with payment, credits and a write-off' },
  { fixture: 'invoice-void', key: 'invoice', map: toInvoice, shows: 'void: mapped, with metaData.sourceStatus "void"' },
  {
    fixture: 'invoice-entity-discount-before-tax',
    key: 'invoice',
    map: toInvoice,
    shows: 'entity-level 10 % discount before tax, shipping, adjustment and round-off',
  },
  { fixture: 'credit-note-two-invoices', key: 'creditnote', map: toCreditNote, shows: 'applied to two invoices, listed by billing invoiceId and number' },
  {
    fixture: 'contact-business',
    key: 'contact',
    map: toCustomer,
    shows: 'a business customer with two contact persons: the primary first, GSTIN, addresses, status',
  },
] as const;

describe('Zoho Books fixtures → the expected billing bodies (test/fixtures/zoho-books/*.expected.json)', () => {
  it.each(CASES.map((c) => [c.fixture, c.shows, c] as const))('given %s (%s), then the body is exactly the expected one', (_name, _shows, c) => {
    expect(expectExpectedBody(c.map(record(c.fixture, c.key), mapContext()), 'zoho-books', c.fixture)).toEqual([]);
  });
});
