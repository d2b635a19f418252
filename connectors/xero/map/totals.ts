import type { LineItem } from '../../../src/billing/schemas/invoice.js';
import type { Tax } from '../../../src/billing/schemas/tax.js';
import {
  buildTax,
  checkInvoiceTotal,
  checkLinesSum,
  checkTaxSum,
  mapFail,
  parseAmount,
  parseAmountOrZero,
  wireAmount,
  type Decimal,
} from '../../../src/mapping/index.js';
import type { Steps } from '../../../src/mapping/steps.js';
import type { XeroLineItem } from '../schemas.js';
import type { XeroLookups } from '../streams/lookups.js';
import { lineOf, type LineAmountTypes } from './lines.js';

/**
 * The document money an invoice and a credit note share (https://developer.xero.com/documentation/api/accounting/invoices:
 * LineItems, LineAmountTypes, SubTotal, TotalTax, Total): the lines (lines.ts), the document tax built from
 * their components, and Xero's own figures checked against each other (Σ line nets = SubTotal, Σ line
 * TaxAmount = TotalTax, SubTotal + TotalTax = Total, within one minor unit; src/mapping/checks.ts), so a
 * record that does not add up is quarantined, never sent.
 */
const TYPES: readonly string[] = ['Exclusive', 'Inclusive', 'NoTax'];

/** The money of an invoice or credit note. */
export interface DocumentAmounts {
  lineItems: LineItem[];
  subtotal: Decimal;
  total: Decimal;
  tax: Tax;
  wire: { subtotal: number; total: number };
}

/** Lines, document tax, subtotal and total of an invoice or credit note; `taxField` names the document tax ("invoiceTax"). */
export function amountsOf(
  s: Steps,
  raw: {
    LineAmountTypes?: string | null;
    LineItems?: XeroLineItem[] | null;
    SubTotal?: unknown;
    TotalTax?: unknown;
    Total?: unknown;
  },
  currency: string,
  lookups: XeroLookups,
  taxField: string,
): DocumentAmounts {
  const types = raw.LineAmountTypes ?? undefined;
  if (types === undefined) s.fail(mapFail('MISSING_FIELD', 'LineAmountTypes is missing', { field: 'LineAmountTypes' }));
  if (!TYPES.includes(types)) {
    s.fail(
      mapFail(
        'INVALID_FIELD',
        `LineAmountTypes ${JSON.stringify(types).slice(0, 30)} is not Exclusive, Inclusive or NoTax`,
        { field: 'LineAmountTypes' },
      ),
    );
  }
  if (!raw.LineItems)
    s.fail(
      mapFail('MISSING_FIELD', 'LineItems are missing (a list read without `page` returns summaries)', {
        field: 'LineItems',
      }),
    );
  const lines = raw.LineItems.flatMap((l, i) => lineOf(s, l, i, types as LineAmountTypes, currency, lookups) ?? []);
  const subtotal = s.take(parseAmount(raw.SubTotal, 'SubTotal'));
  const totalTax = s.take(parseAmountOrZero(raw.TotalTax, 'TotalTax'));
  const total = s.take(parseAmount(raw.Total, 'Total'));
  s.check(checkLinesSum({ lineSubtotals: lines.map((l) => l.net), subtotal, currency, field: 'SubTotal' }));
  s.check(checkTaxSum({ components: lines.map((l) => l.tax), taxTotal: totalTax, currency }));
  s.check(checkInvoiceTotal({ subtotal, tax: totalTax, total, currency }));
  const tax = s.take(
    buildTax(
      lines.flatMap((l) => l.components),
      currency,
      taxField,
    ),
  );
  return {
    lineItems: lines.map((l) => l.item),
    subtotal,
    total,
    tax,
    wire: { subtotal: wireAmount(s, subtotal, currency, 'SubTotal'), total: wireAmount(s, total, currency, 'Total') },
  };
}
