import type { Tax } from '../../../src/billing/schemas/tax.js';
import type { LineItem } from '../../../src/billing/schemas/invoice.js';
import {
  buildTax,
  checkInvoiceTotal,
  checkLinesSum,
  checkTaxSum,
  collectWarnings,
  mapFail,
  mapOk,
  parseAmount,
  parseAmountOrZero,
  tryWireNumber,
  type Decimal,
  type MapResult,
} from '../../../src/mapping/index.js';
import type { XeroLineItem } from '../schemas.js';
import { mapLines, type LineAmountTypes } from './lines.js';
import type { XeroLookups } from './xero-lookups.js';

/**
 * The money of an invoice or credit note: lines, document tax, subtotal, total, with Xero's own figures
 * checked against each other (Σ line nets = SubTotal, Σ line TaxAmount = TotalTax, SubTotal + TotalTax =
 * Total, within one minor unit) so a record that does not add up is quarantined, never sent.
 * Xero has no document-level discount: line discounts are inside the lines, so `discount` stays unset.
 */
export interface DocumentAmounts {
  lineItems: LineItem[];
  subtotal: Decimal;
  total: Decimal;
  tax: Tax;
  wire: { subtotal: number; total: number };
  warnings: string[];
}

const TYPES: readonly string[] = ['Exclusive', 'Inclusive', 'NoTax'];

export function mapDocumentAmounts(
  raw: { LineAmountTypes?: string | null; LineItems?: XeroLineItem[] | null; SubTotal?: unknown; TotalTax?: unknown; Total?: unknown },
  currency: string,
  lookups: XeroLookups,
  taxField: string,
): MapResult<DocumentAmounts> {
  const types = raw.LineAmountTypes ?? undefined;
  if (types === undefined) return mapFail('MISSING_FIELD', 'LineAmountTypes is missing', { field: 'LineAmountTypes' });
  if (!TYPES.includes(types))
    return mapFail('INVALID_FIELD', `LineAmountTypes ${JSON.stringify(types).slice(0, 30)} is not Exclusive, Inclusive or NoTax`, { field: 'LineAmountTypes' });
  if (!raw.LineItems) return mapFail('MISSING_FIELD', 'LineItems are missing (a list read without `page` returns summaries)', { field: 'LineItems' });
  const lines = mapLines(raw.LineItems, types as LineAmountTypes, currency, lookups);
  if (!lines.ok) return lines;
  const subtotal = parseAmount(raw.SubTotal, 'SubTotal');
  if (!subtotal.ok) return subtotal;
  const totalTax = parseAmountOrZero(raw.TotalTax, 'TotalTax');
  if (!totalTax.ok) return totalTax;
  const total = parseAmount(raw.Total, 'Total');
  if (!total.ok) return total;
  const bad =
    checkLinesSum({ lineSubtotals: lines.value.map((l) => l.net), subtotal: subtotal.value, currency, field: 'SubTotal' }) ??
    checkTaxSum({ components: lines.value.map((l) => l.tax), taxTotal: totalTax.value, currency }) ??
    checkInvoiceTotal({ subtotal: subtotal.value, tax: totalTax.value, total: total.value, currency });
  if (bad) return bad;
  const tax = buildTax(
    lines.value.flatMap((l) => l.components),
    currency,
    taxField,
  );
  if (!tax.ok) return tax;
  const sub = tryWireNumber(subtotal.value, currency, 'SubTotal');
  if (!sub.ok) return sub;
  const tot = tryWireNumber(total.value, currency, 'Total');
  if (!tot.ok) return tot;
  return mapOk({
    lineItems: lines.value.map((l) => l.item),
    subtotal: subtotal.value,
    total: total.value,
    tax: tax.value,
    wire: { subtotal: sub.value, total: tot.value },
    warnings: collectWarnings(lines, tax),
  });
}
