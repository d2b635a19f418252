import type { LineItem } from '../../../src/billing/schemas/invoice.js';
import {
  buildTax,
  itemDiscount,
  isTextLine,
  mapFail,
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
 * Xero line items → billing line items (https://developer.xero.com/documentation/api/accounting/invoices:
 * LineItems, LineAmountTypes); the document money they add up to is totals.ts.
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
 */
export type LineAmountTypes = 'Exclusive' | 'Inclusive' | 'NoTax';

export interface MappedLine {
  item: LineItem;
  net: Decimal;
  tax: Decimal;
  components: TaxComponent[];
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

export function lineOf(
  s: Steps,
  l: XeroLineItem,
  i: number,
  types: LineAmountTypes,
  currency: string,
  lookups: XeroLookups,
): MappedLine | undefined {
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
  const amount =
    stated ?? s.fail(mapFail('MISSING_FIELD', `${field}.LineAmount is missing`, { field: `${field}.LineAmount` }));
  const { quantity, unitPrice } = quantityAndPrice({ amount, quantity: statedQuantity, unitPrice: unit });
  if (types === 'NoTax' && !tax.isZero()) {
    s.fail(
      mapFail('AMOUNTS_INCONSISTENT', `${field} has TaxAmount ${tax.toFixed()} on a NoTax document`, {
        field: `${field}.TaxAmount`,
      }),
    );
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
    s.fail(
      mapFail(
        'AMOUNTS_INCONSISTENT',
        `${field}: tax components add up to ${taxSum.toFixed()} but TaxAmount is ${tax.toFixed()}`,
        { field },
      ),
    );
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
