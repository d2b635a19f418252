import type { LineItem, Tax } from '../../../src/billing/schemas/index.js';
import {
  buildDiscount,
  formatMoney,
  isTextLine,
  mapFail,
  minorUnit,
  parseDiscountValue,
  parseOptionalAmount,
  percentOf,
  quantityAndPrice,
  roundMoney,
  textLineItem,
  ZERO,
  type Decimal,
  wireAmount,
  nonBlank,
} from '../../../src/mapping/index.js';
import type { Steps } from '../../../src/mapping/steps.js';
import type { ZohoLineItem } from '../schemas.js';

/**
 * Zoho line items (https://www.zoho.com/books/api/v3/invoices/) in exact decimals. Zoho's own arithmetic:
 * `item_total = quantity × rate − item discount`, checked here within one minor unit. item_total is the
 * vendor's figure: a discount given only as a percentage is quantity × rate − item_total.
 *
 * Billing line items: `subTotal` = Zoho's item_total (after the line's own discount, before tax), so
 * Σ subTotal = invoiceSubtotal; `discount` = the item discount already taken off; `tax` = the line's
 * reconciled tax (tax.ts); `total` = subTotal + tax; `pricePerItem` = `rate` as sent. A line with an
 * item_total but no quantity or rate is quantity 1 at that amount (src/mapping/quantity-and-price.ts); a
 * line with no item and no money is a text line (src/mapping/text-line.ts).
 */
export type LineItemDraft = Omit<LineItem, 'subTotal' | 'total' | 'quantity'> & {
  subTotal: number;
  total: number;
  quantity: number;
};

export interface ParsedLine {
  /** A text line: no money and no item; every figure below is zero and it has no tax. */
  text?: boolean;
  quantity: Decimal;
  rate: Decimal;
  itemTotal: Decimal;
  discountAmount: Decimal;
  discountPercent?: Decimal;
  taxId?: string;
}

export function within(a: Decimal, b: Decimal, currency: string, units: number): boolean {
  return a.minus(b).abs().lte(minorUnit(currency).times(units));
}

const TEXT: ParsedLine = { text: true, quantity: ZERO, rate: ZERO, itemTotal: ZERO, discountAmount: ZERO };

export function parseLine(s: Steps, line: ZohoLineItem, i: number, currency: string): ParsedLine {
  const at = `line_items.${i}`;
  const statedQuantity = s.take(parseOptionalAmount(line.quantity, `${at}.quantity`));
  const statedRate = s.take(parseOptionalAmount(line.rate, `${at}.rate`));
  const statedTotal = s.take(parseOptionalAmount(line.item_total, `${at}.item_total`));
  const entered = s.take(parseDiscountValue(line.discount, `${at}.discount`));
  const money = s.take(parseOptionalAmount(line.discount_amount, `${at}.discount_amount`));
  const stated = money && !money.isZero() ? money : entered.amount;
  // A line without an item and without money (no rate, no item_total): text (src/mapping/text-line.ts).
  if (
    isTextLine({
      amount: statedTotal,
      unitPrice: statedRate,
      discount: stated,
      namesItem: nonBlank(line.item_id) !== undefined,
    })
  )
    return TEXT;
  const itemTotal =
    statedTotal ?? s.fail(mapFail('MISSING_FIELD', `${at}.item_total is missing`, { field: `${at}.item_total` }));
  // No quantity or no rate: derived from the amount before the line's discount (quantity 1 when both are missing).
  const { quantity, unitPrice: rate } = quantityAndPrice({
    amount: itemTotal.plus(stated ?? ZERO),
    quantity: statedQuantity,
    unitPrice: statedRate,
  });
  const gross = roundMoney(quantity.times(rate), currency);
  // With only a percentage, the discount is what Zoho took off to reach item_total: Zoho rounded the line,
  // not the discount, so the percentage rounded on its own can be a minor unit off (15 % of 9.90 is 1.485
  // → 1.49, while Zoho's item_total 8.42 leaves 1.48). It must still be that percentage within a minor unit.
  const fromPercent = entered.percentage ? roundMoney(percentOf(gross, entered.percentage), currency) : undefined;
  const fromItemTotal =
    fromPercent === undefined ? undefined : roundMoney(quantity.times(rate).minus(itemTotal), currency);
  const discountAmount =
    stated !== undefined
      ? roundMoney(stated, currency)
      : fromItemTotal !== undefined && within(fromItemTotal, fromPercent!, currency, 1)
        ? fromItemTotal
        : (fromPercent ?? ZERO);
  if (!within(gross.minus(discountAmount), itemTotal, currency, 1)) {
    const fm = (d: Decimal) => formatMoney(d, currency);
    s.fail(
      mapFail(
        'AMOUNTS_INCONSISTENT',
        `${at}: quantity ${quantity.toFixed()} × rate ${rate.toFixed()} − discount ${fm(discountAmount)} = ${fm(gross.minus(discountAmount))}, but item_total is ${fm(itemTotal)} ${currency}`,
        { field: `${at}.item_total` },
      ),
    );
  }
  return {
    quantity,
    rate,
    itemTotal,
    discountAmount,
    discountPercent: entered.percentage,
    taxId: nonBlank(line.tax_id),
  };
}

/**
 * One billing line item; `tax` is the line's own tax (undefined when untaxed), `taxAmount` and `taxRate` its
 * sums. A text line is its description (else its name) as a zero line; one without any text is left out.
 */
export function lineItemOf(
  s: Steps,
  raw: ZohoLineItem,
  l: ParsedLine,
  i: number,
  tax: { tax?: Tax; taxAmount: Decimal; taxRate: Decimal },
  currency: string,
  tds?: { tds: number; tdsRate: number },
): LineItemDraft | undefined {
  if (l.text)
    return s.take(textLineItem(nonBlank(raw.description) ?? raw.name, `line_items.${i}`, nonBlank(raw.line_item_id)));
  const discount = l.discountAmount.isZero()
    ? undefined
    : s.take(
        buildDiscount({
          amount: l.discountAmount,
          percentage: l.discountPercent,
          base: l.quantity.times(l.rate),
          isPostTax: false,
          currency,
          field: `line_items.${i}.discount`,
        }),
      );
  const name = nonBlank(raw.name) ?? nonBlank(raw.description) ?? `Line ${i + 1}`;
  // TDS the customer deducts on this line (India): beside the GST, never in the line's total.
  const lineTax: Tax | undefined = tds ? { ...(tax.tax ?? { total: 0 }), tdsTax: tds, tds: tds.tds } : tax.tax;
  return {
    lineItemDetails: {
      name,
      taxRate: tax.taxRate.toNumber(),
      // Unit prices may carry more decimals than the currency (Zoho allows 0.125): sent as received.
      pricePerItem: l.rate.toNumber(),
      ...(nonBlank(raw.hsn_or_sac) ? { hsnOrSacCode: nonBlank(raw.hsn_or_sac) } : {}),
      ...(nonBlank(raw.description) ? { description: nonBlank(raw.description) } : {}),
      ...(nonBlank(raw.item_id) ? { erpId: nonBlank(raw.item_id) } : {}),
      ...(nonBlank(raw.line_item_id) ? { lineItemId: nonBlank(raw.line_item_id) } : {}),
    },
    subTotal: wireAmount(s, l.itemTotal, currency, `lineItems.${i}.subTotal`),
    total: wireAmount(s, l.itemTotal.plus(tax.taxAmount), currency, `lineItems.${i}.total`),
    ...(lineTax ? { tax: lineTax } : {}),
    ...(discount ? { discount } : {}),
    quantity: l.quantity.toNumber(),
  };
}
