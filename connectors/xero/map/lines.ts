import type { LineItem } from '../../../src/billing/schemas/invoice.js';
import type { Tax } from '../../../src/billing/schemas/tax.js';
import {
  buildTax,
  checkInvoiceTotal,
  checkLinesSum,
  checkTaxSum,
  itemDiscount,
  isTextLine,
  mapFail,
  parseAmount,
  parseAmountOrZero,
  parseOptionalAmount,
  quantityAndPrice,
  roundMoney,
  sumMoney,
  textLineItem,
  ZERO,
  type Decimal,
  type TaxComponent,
  wireAmount,
} from '../../../src/mapping/index.js';
import type { Steps } from '../../../src/mapping/steps.js';
import type { XeroLineItem } from '../schemas.js';
import type { XeroLookups } from '../streams/lookups.js';
import { lineTaxComponents } from './tax.js';

/**
 * Xero line items → billing line items, and the document money they add up to
 * (https://developer.xero.com/documentation/api/accounting/invoices: LineItems, LineAmountTypes,
 * SubTotal, TotalTax, Total).
 * - `LineAmount` is after the line's discount, and, with LineAmountTypes `Inclusive`, includes the tax:
 *   net = LineAmount − TaxAmount (exact decimals); `Exclusive`/`NoTax`: net = LineAmount; total = net + tax.
 * - DiscountRate/DiscountAmount become the line's `discount` for information only: LineAmount already has
 *   it taken off, so nothing is subtracted again (and the document gets no `discount`: Xero has no
 *   document-level discount). With a DiscountRate only, the amount is Quantity × UnitAmount − LineAmount
 *   (Xero's arithmetic), never the rate re-rounded on its own.
 * - `pricePerItem` = UnitAmount as Xero shows it (tax-inclusive on Inclusive documents); `taxRate` = the
 *   TaxRate's effective rate. A line with a LineAmount but no Quantity or UnitAmount is quantity 1 at
 *   that amount, a missing one derived as Xero derives it (src/mapping/quantity-and-price.ts).
 * - A line with no money and no item ("a line item with just a description (i.e no unit amount or
 *   quantity)", LineItems.Description in the same page) is a text line (src/mapping/text-line.ts).
 * - Xero's own figures are checked against each other (Σ line nets = SubTotal, Σ line TaxAmount =
 *   TotalTax, SubTotal + TotalTax = Total, within one minor unit) by src/mapping/checks.ts, so a record
 *   that does not add up is quarantined, never sent.
 */
export type LineAmountTypes = 'Exclusive' | 'Inclusive' | 'NoTax';

const TYPES: readonly string[] = ['Exclusive', 'Inclusive', 'NoTax'];

export interface MappedLine {
  item: LineItem;
  net: Decimal;
  tax: Decimal;
  components: TaxComponent[];
}

/** The money of an invoice or credit note. */
export interface DocumentAmounts {
  lineItems: LineItem[];
  subtotal: Decimal;
  total: Decimal;
  tax: Tax;
  wire: { subtotal: number; total: number };
}

/** The line's own discount (for information: LineAmount already has it off), when Xero states a unit price to discount. */
function discountOf(
  s: Steps,
  l: XeroLineItem,
  i: number,
  line: { quantity: Decimal; unit?: Decimal; amount: Decimal; discountAmount?: Decimal; currency: string },
) {
  const rate = s.take(parseOptionalAmount(l.DiscountRate, `LineItems.${i}.DiscountRate`));
  const amount = line.discountAmount;
  if (!(rate || amount) || !line.unit) return undefined;
  return s.take(
    itemDiscount({
      amount,
      percentage: rate,
      quantity: line.quantity,
      unitPrice: line.unit,
      // Xero computes LineAmount itself: the discount is what it took off, not a re-rounded rate.
      lineAmount: line.amount,
      isPostTax: false,
      currency: line.currency,
      field: `lineItems.${i}.discount`,
    }),
  );
}

/** A line that names an item (ItemCode, or the Item it refers to) is a product even at zero. */
const namesItem = (l: XeroLineItem): boolean => Boolean(l.ItemCode?.trim() || l.Item?.ItemID || l.Item?.Code?.trim());

function lineOf(s: Steps, l: XeroLineItem, i: number, types: LineAmountTypes, currency: string, lookups: XeroLookups): MappedLine | undefined {
  const field = `LineItems.${i}`;
  const stated = s.take(parseOptionalAmount(l.LineAmount, `${field}.LineAmount`));
  const tax = s.take(parseAmountOrZero(l.TaxAmount, `${field}.TaxAmount`));
  const statedQuantity = s.take(parseOptionalAmount(l.Quantity, `${field}.Quantity`));
  const unit = s.take(parseOptionalAmount(l.UnitAmount, `${field}.UnitAmount`));
  const discountAmount = s.take(parseOptionalAmount(l.DiscountAmount, `${field}.DiscountAmount`));
  // "A line item with just a description (i.e no unit amount or quantity)": text (src/mapping/text-line.ts).
  if (isTextLine({ amount: stated, unitPrice: unit, tax, discount: discountAmount, namesItem: namesItem(l) })) {
    const text = s.take(textLineItem(l.Description, field, l.LineItemID ?? undefined));
    return text ? { item: text, net: ZERO, tax: ZERO, components: [] } : undefined;
  }
  const amount = stated ?? s.fail(mapFail('MISSING_FIELD', `${field}.LineAmount is missing`, { field: `${field}.LineAmount` }));
  const { quantity, unitPrice } = quantityAndPrice({ amount, quantity: statedQuantity, unitPrice: unit });
  if (types === 'NoTax' && !tax.isZero()) {
    s.fail(mapFail('AMOUNTS_INCONSISTENT', `${field} has TaxAmount ${tax.toFixed()} on a NoTax document`, { field: `${field}.TaxAmount` }));
  }
  const net = types === 'Inclusive' ? amount.minus(tax) : amount;
  const classified = lineTaxComponents({
    taxType: l.TaxType,
    taxAmount: tax,
    lineNet: net,
    rate: l.TaxType ? lookups.taxRates[l.TaxType] : undefined,
    currency,
  });
  if (classified.warning) s.warn(`${field}: ${classified.warning}`);
  const lineTax = s.take(buildTax(classified.components, currency, `lineItems.${i}.tax`));
  const taxSum = sumMoney(classified.components.map((c) => c.amount));
  if (!roundMoney(taxSum, currency).eq(roundMoney(tax, currency))) {
    s.fail(mapFail('AMOUNTS_INCONSISTENT', `${field}: tax components add up to ${taxSum.toFixed()} but TaxAmount is ${tax.toFixed()}`, { field }));
  }
  const subTotal = wireAmount(s, net, currency, `${field}.subTotal`);
  const total = wireAmount(s, net.plus(tax), currency, `${field}.total`);
  const discount = discountOf(s, l, i, { quantity, unit, amount, discountAmount, currency });
  const name = l.Description?.trim() || l.Item?.Name?.trim() || l.ItemCode?.trim() || `Line ${i + 1}`;
  const item: LineItem = {
    lineItemDetails: {
      name,
      taxRate: classified.ratePercent.toNumber(),
      // UnitAmount as Xero shows it; derived from LineAmount when Xero left it out (Xero keeps at most 4 decimals).
      pricePerItem: unitPrice.toDecimalPlaces(6).toNumber(),
      ...(l.Description?.trim() && l.Description.trim() !== name ? { description: l.Description.trim() } : {}),
      ...(l.ItemCode?.trim() ? { erpId: l.ItemCode.trim() } : {}),
      ...(l.LineItemID ? { lineItemId: l.LineItemID } : {}),
    },
    quantity: quantity.toDecimalPlaces(6).toNumber(),
    subTotal,
    total,
    tax: lineTax,
    ...(discount ? { discount } : {}),
  };
  return { item, net, tax, components: classified.components };
}

/** Lines, document tax, subtotal and total of an invoice or credit note; `taxField` names the document tax ("invoiceTax"). */
export function amountsOf(
  s: Steps,
  raw: { LineAmountTypes?: string | null; LineItems?: XeroLineItem[] | null; SubTotal?: unknown; TotalTax?: unknown; Total?: unknown },
  currency: string,
  lookups: XeroLookups,
  taxField: string,
): DocumentAmounts {
  const types = raw.LineAmountTypes ?? undefined;
  if (types === undefined) s.fail(mapFail('MISSING_FIELD', 'LineAmountTypes is missing', { field: 'LineAmountTypes' }));
  if (!TYPES.includes(types)) {
    s.fail(
      mapFail('INVALID_FIELD', `LineAmountTypes ${JSON.stringify(types).slice(0, 30)} is not Exclusive, Inclusive or NoTax`, { field: 'LineAmountTypes' }),
    );
  }
  if (!raw.LineItems) s.fail(mapFail('MISSING_FIELD', 'LineItems are missing (a list read without `page` returns summaries)', { field: 'LineItems' }));
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
