import { describe, expect, it } from 'vitest';
import { toCreditNote } from '../../../../connectors/quickbooks/map/credit-note.js';
import { toCustomer } from '../../../../connectors/quickbooks/map/customer.js';
import { toInvoice } from '../../../../connectors/quickbooks/map/invoice.js';
import { buildLookups } from '../../../../connectors/quickbooks/streams/lookups.js';
import { expectExpectedBody } from '../../support/expected-body.js';
import { fixture, mapContext, sourceRecord } from '../fixtures.js';

/**
 * Every fixture with a full expected body: test/fixtures/quickbooks/<fixture>.json (and the customer
 * record the stream would attach, and the company's lookups) → the mapper → exactly
 * <fixture>.expected.json, field for field and in the same key order (the bytes billing receives).
 * Warnings are none unless the case lists them. The tests beside this one each assert one rule on a
 * changed copy of a fixture.
 */
const CASES = [
  {
    fixture: 'invoice-intra-state',
    map: toInvoice,
    customer: 'customer-registered',
    shows: 'intra-state GST: CGST + SGST TaxLines split per line to the paisa',
  },
  {
    fixture: 'invoice-inter-state',
    map: toInvoice,
    shows: 'inter-state: one IGST TaxLine, the customer from the document (no customer record)',
  },
  {
    fixture: 'invoice-usd',
    map: toInvoice,
    shows: 'USD, partly paid: ExchangeRate (INR per USD) sent as is, paid = TotalAmt − Balance',
  },
  {
    fixture: 'invoice-partially-paid',
    map: toInvoice,
    shows: 'paise amounts: paid exact (3358.32 − 1358.32), place of supply from ShipAddr',
  },
  { fixture: 'invoice-voided', map: toInvoice, shows: 'voided: a status with zero amounts, never a delete' },
  {
    fixture: 'invoice-discounted',
    map: toInvoice,
    shows: 'a 10 % DiscountLineDetail before tax: discount {4000, 10 %, pre-tax}, tax on the discounted amount',
  },
  {
    fixture: 'invoice-credit-applied',
    map: toInvoice,
    shows: 'a linked credit memo goes to invoiceAdjustedAmount, only cash to invoicePaidAmount',
  },
  {
    fixture: 'invoice-au-tax-inclusive',
    map: toInvoice,
    lookups: 'lookups-au',
    baseCurrency: 'AUD',
    shows: 'AU TaxInclusive: Amount net, TaxInclusiveAmt gross, a DescriptionOnly line as a zero line',
  },
  {
    fixture: 'credit-memo-applied',
    map: toCreditNote,
    customer: 'customer-registered',
    shows: 'fully applied to the invoice it names: TotalAmt − RemainingCredit',
  },
  {
    fixture: 'credit-memo-usd',
    map: toCreditNote,
    shows: 'USD, unapplied, in an INR company: ExchangeRate as is; a line class and a department as tags',
  },
  {
    fixture: 'customer-registered',
    map: toCustomer,
    shows: 'a registered Indian business: GSTIN and PAN, GSTRegistrationType in metaData',
  },
  {
    fixture: 'customer-inactive',
    map: toCustomer,
    shows: 'inactive ("deleted" in QBO): INACTIVE as a status, a malformed PAN left out with a warning',
    warnings: ['customer 31: BusinessNumber is not a PAN; not sent'],
  },
] as const satisfies ReadonlyArray<{
  fixture: string;
  map: typeof toInvoice;
  customer?: string;
  lookups?: string;
  baseCurrency?: string;
  shows: string;
  warnings?: string[];
}>;

describe('QuickBooks fixtures → the expected billing bodies (test/fixtures/quickbooks/*.expected.json)', () => {
  it.each(CASES.map((c) => [c.fixture, c.shows, c] as const))(
    'given %s (%s), then the body is exactly the expected one',
    (_name, _shows, c) => {
      const raw = { ...fixture(c.fixture), ...('customer' in c ? { _customer: fixture(c.customer) } : {}) };
      const lookups =
        'lookups' in c ? buildLookups(fixture(c.lookups) as Parameters<typeof buildLookups>[0]) : undefined;
      const result = c.map(
        sourceRecord(raw),
        mapContext('baseCurrency' in c ? { baseCurrency: c.baseCurrency } : {}, lookups),
      );
      expect(expectExpectedBody(result, 'quickbooks', c.fixture)).toEqual('warnings' in c ? c.warnings : []);
    },
  );
});
