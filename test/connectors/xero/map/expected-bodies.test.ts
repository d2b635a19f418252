import { describe, expect, it } from 'vitest';
import type { MapContext } from '../../../../src/connector/types.js';
import { toCreditNote } from '../../../../connectors/xero/map/credit-note.js';
import { toCustomer } from '../../../../connectors/xero/map/customer.js';
import { toInvoice } from '../../../../connectors/xero/map/invoice.js';
import { expectExpectedBody } from '../../support/expected-body.js';
import {
  australiaLookups,
  contactRecords,
  creditNoteRecord,
  indiaLookups,
  invoiceRecord,
  ukLookups,
} from '../fixtures.js';

/**
 * Every fixture with a full expected body: test/fixtures/xero/<fixture>.json, read through the
 * connector's own schemas and record builder, with the organisation's lookups → the mapper → exactly
 * <expected>.expected.json beside it, field for field and in the same key order (the bytes billing
 * receives); warnings are none unless the case lists them. The tests beside this one each assert one
 * rule on a changed copy of a fixture.
 */
const organisation = (connectionId: string, baseCurrency: string, lookups: MapContext['lookups']): MapContext => ({
  connectionId,
  originSource: 'EXTERNAL_SYSTEM_C',
  baseCurrency,
  lookups,
});
const INDIA = organisation('xero-in', 'INR', indiaLookups);
/** Contacts without the organisation's lookups: the bodies say only what each contact says (no organisation defaults). */
const CONTACTS = organisation('xero-in', 'INR', {});
const contact = (i: number) => () => contactRecords()[i]!;

const CASES = [
  {
    expected: 'invoice-usd-in-aud-org-part-paid',
    record: () => invoiceRecord('invoice-usd-in-aud-org-part-paid.json'),
    map: toInvoice,
    ctx: organisation('xero-au', 'AUD', australiaLookups),
    shows: 'USD in an AUD organisation, billing in AUD, partly paid: the rate inverted',
  },
  {
    expected: 'invoice-inclusive-gst',
    record: () => invoiceRecord('invoice-inclusive-gst.json'),
    map: toInvoice,
    ctx: INDIA,
    shows: 'Inclusive with CGST/SGST, a discounted line, a payment and a credit',
    warnings: [
      'CGST has mixed rates 9, 2.5; sending the effective rate 7.8609',
      'SGST has mixed rates 9, 2.5; sending the effective rate 7.8609',
    ],
  },
  {
    expected: 'invoice-notax',
    record: () => invoiceRecord('invoice-notax.json'),
    map: toInvoice,
    ctx: INDIA,
    shows: 'NoTax, a Date without offset, a due date only as DateString',
  },
  {
    expected: 'invoice-voided',
    record: () => invoiceRecord('invoice-voided.json'),
    map: toInvoice,
    ctx: INDIA,
    shows: 'VOIDED: its totals, sourceStatus VOIDED',
  },
  {
    expected: 'credit-note-allocations',
    record: () => creditNoteRecord('credit-note-allocations.json'),
    map: toCreditNote,
    ctx: INDIA,
    shows: 'two live allocations and a deleted one, applied to the invoice ids the invoice stream uses',
  },
  {
    expected: 'credit-note-usd-in-inr-org',
    record: () => creditNoteRecord('credit-note-usd-in-inr-org.json'),
    map: toCreditNote,
    ctx: INDIA,
    shows: 'USD in an INR organisation, unallocated: the rate inverted, a tracked line as tags',
  },
  {
    expected: 'credit-note-uk-inclusive-text-line',
    record: () => creditNoteRecord('credit-note-uk-inclusive-text-line.json'),
    map: toCreditNote,
    ctx: organisation('xero-uk', 'GBP', ukLookups),
    shows: 'UK VAT-inclusive with a description-only first line: a zero text line, exact money',
  },
  {
    expected: 'contacts.kaveri',
    record: contact(0),
    map: toCustomer,
    ctx: CONTACTS,
    shows: 'Indian customer: GSTIN, PAN, state, two addresses, a complete primary contact',
  },
  {
    expected: 'contacts.harbour',
    record: contact(1),
    map: toCustomer,
    ctx: CONTACTS,
    shows: 'UK customer: a spaced VAT number, an empty PO box, GB',
  },
  {
    expected: 'contacts.coral',
    record: contact(2),
    map: toCustomer,
    ctx: CONTACTS,
    shows:
      "ARCHIVED with an ABN: INACTIVE (not deleted), an OTHER tax id; no country or currency, so billing's defaults, with a warning",
    warnings: [
      'customer.countryCode not set from the source: billing\'s default "IN" applies',
      'customer.currency not set from the source: billing\'s default "INR" applies',
    ],
  },
] as const;

describe('Xero fixtures → the expected billing bodies (test/fixtures/xero/*.expected.json)', () => {
  it.each(CASES.map((c) => [c.expected, c.shows, c] as const))(
    'given %s (%s), then the body is exactly the expected one',
    (_name, _shows, c) => {
      expect(expectExpectedBody(c.map(c.record(), c.ctx), 'xero', c.expected)).toEqual(
        'warnings' in c ? c.warnings : [],
      );
    },
  );
});
