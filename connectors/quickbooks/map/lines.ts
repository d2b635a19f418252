import type { Discount, LineItem } from '../../../src/billing/schemas/index.js';
import {
  buildTax,
  type Decimal,
  formatMoney,
  isTextLine,
  itemDiscount,
  type LineFigures,
  mapFail,
  type MapFailure,
  minorUnit,
  parseAmount,
  parseOptionalAmount,
  percentOf,
  quantityAndPrice,
  roundMoney,
  sumMoney,
  textLineItem,
  wireAmount,
} from '../../../src/mapping/index.js';
import type { Steps } from '../../../src/mapping/steps.js';
import { QboLine } from '../schemas.js';
import type { QboLookups } from '../streams/lookups.js';
import { type DocTaxComponent, taxCodeRate } from './tax.js';
import type { ItemLine } from './item-line.js';

export type { ItemLine } from './item-line.js';

/** A document-level discount line. */
export interface DiscountLine {
  amount: Decimal;
  /** Set when PercentBased: 10 means 10 %. */
  percent?: Decimal;
}

/**
 * QBO `Line[]` read into what the billing body needs (fields: Finance.xsd in
 * https://github.com/intuit/QuickBooks-V3-Java-SDK). `DetailType` decides:
 * - `SalesItemLineDetail` → an item line: quantity `Qty`, unit price `UnitPrice`, name = `ItemRef.name`
 *   (else the line's Description), amount = the line's `Amount` (net of tax; the authoritative money);
 *   a line `DiscountAmt`/`DiscountRate` is the line's `discount`, already inside Amount.
 *   Except QBO's shipping line, `ItemRef.value` `SHIPPING_ITEM_ID` ("Invoice supports sales tax, and
 *   shipping charges as a special line item":
 *   https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/invoice): it comes
 *   after the SubTotalLineDetail, is not part of that subtotal, and is added to TotalAmt after the
 *   discount — a shipping charge, not an item.
 * - `DiscountLineDetail` → a document-level discount (`Amount`, `PercentBased`/`DiscountPercent`).
 * - `SubTotalLineDetail` → skipped as an item (QBO's auto-generated subtotal); its Amount is kept only to
 *   check the item lines add up to it.
 * - `DescriptionOnly` → a text line (src/mapping/text-line.ts): Intuit's DescriptionOnlyLine has "no
 *   amount associated with it" (Finance.xsd, DescriptionLineDetail); the Amount it may carry (read only,
 *   minor version 23) is an inline subtotal, "the sum of amounts on all lines above it", or an amount typed
 *   in the UI that QBO leaves out of the document's arithmetic
 *   (https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/invoice, Line,
 *   DescriptionOnlyLine). So it is never money here: the text is carried as a zero line, in its place.
 * - A `SalesItemLineDetail` with no money (no Amount, UnitPrice or discount other than zero) and no
 *   ItemRef is text by the same rule; one with an Amount but no Qty or UnitPrice is quantity 1 at that
 *   amount (src/mapping/quantity-and-price.ts).
 * - `GroupLineDetail` → its nested `Line[]` (bundles) are read as if they were top-level lines.
 * - anything else with money on it → UNSUPPORTED (we would rather not guess what it means).
 * QBO states tax on the document, not on lines (tax.ts spreads it over the item lines).
 */
export interface ReadLines {
  items: ItemLine[];
  /** The billing lines in QBO's order: an index into `items`, or a text line as it is sent. */
  layout: Array<number | LineItem>;
  discounts: DiscountLine[];
  /** Amount of the SubTotalLineDetail line, when there is exactly one. */
  subtotalLine?: Decimal;
  /** The shipping lines' amounts (SHIPPING_ITEM_ID), outside the subtotal. */
  shipping: Decimal[];
}

/** The ItemRef QBO gives its shipping line (sales form preference "Shipping" on). */
export const SHIPPING_ITEM_ID = 'SHIPPING_ITEM_ID';

export function readLines(s: Steps, raw: readonly unknown[], currency: string): ReadLines {
  const out: ReadLines = { items: [], layout: [], discounts: [], shipping: [] };
  const subtotals: Decimal[] = [];
  walk(s, raw, 'Line', currency, out, subtotals);
  if (subtotals.length === 1) out.subtotalLine = subtotals[0];
  return out;
}

function walk(
  s: Steps,
  lines: readonly unknown[],
  path: string,
  currency: string,
  out: ReadLines,
  subtotals: Decimal[],
): void {
  for (const [i, rawLine] of lines.entries()) {
    const field = `${path}.${i}`;
    const parsed = QboLine.safeParse(rawLine);
    if (!parsed.success) s.fail(mapFail('INVALID_FIELD', `${field} is not a QuickBooks line`, { field }));
    const line = parsed.data;
    switch (line.DetailType) {
      case 'SalesItemLineDetail':
        if (line.SalesItemLineDetail?.ItemRef?.value === SHIPPING_ITEM_ID)
          out.shipping.push(s.take(parseAmount(line.Amount, `${field}.Amount`)));
        else if (isTextLine(figuresOf(s, line, field))) addText(s, out, line, field);
        else {
          out.layout.push(out.items.length);
          out.items.push(itemLine(s, line, field, currency));
        }
        break;
      case 'DiscountLineDetail': {
        const amount = s.take(parseAmount(line.Amount, `${field}.Amount`));
        const d = line.DiscountLineDetail;
        const percent = d?.PercentBased
          ? s.take(parseOptionalAmount(d.DiscountPercent, `${field}.DiscountLineDetail.DiscountPercent`))
          : undefined;
        out.discounts.push({ amount: amount.abs(), ...(percent === undefined ? {} : { percent }) });
        break;
      }
      case 'SubTotalLineDetail': {
        const amount = s.take(parseOptionalAmount(line.Amount, `${field}.Amount`));
        if (amount !== undefined) subtotals.push(amount);
        break;
      }
      case 'DescriptionOnly':
        addText(s, out, line, field);
        break;
      case 'GroupLineDetail':
        walk(s, line.GroupLineDetail?.Line ?? [], `${field}.GroupLineDetail.Line`, currency, out, subtotals);
        break;
      default: {
        const amount = parseOptionalAmount(line.Amount, `${field}.Amount`);
        if (amount.ok && amount.value && !amount.value.isZero()) {
          s.fail(
            mapFail('UNSUPPORTED', `${field}: line type ${line.DetailType} with an amount is not mapped`, { field }),
          );
        }
      }
    }
  }
}

/** A SalesItemLineDetail's money and item, for the text-line rule. */
function figuresOf(s: Steps, line: QboLine, field: string): LineFigures {
  const d = line.SalesItemLineDetail ?? {};
  return {
    amount: s.take(parseOptionalAmount(line.Amount, `${field}.Amount`)),
    unitPrice: s.take(parseOptionalAmount(d.UnitPrice, `${field}.SalesItemLineDetail.UnitPrice`)),
    discount: s.take(parseOptionalAmount(d.DiscountAmt, `${field}.SalesItemLineDetail.DiscountAmt`)),
    namesItem: d.ItemRef?.value !== undefined,
  };
}

function addText(s: Steps, out: ReadLines, line: QboLine, field: string): void {
  const text = s.take(textLineItem(line.Description, field, line.Id));
  if (text) out.layout.push(text);
}

function itemLine(s: Steps, line: QboLine, field: string, currency: string): ItemLine {
  const d = line.SalesItemLineDetail ?? {};
  const amount = s.take(parseAmount(line.Amount, `${field}.Amount`));
  // QBO may omit Qty or UnitPrice (amount-only lines): the missing one comes from the amount.
  const { quantity, unitPrice } = quantityAndPrice({
    amount,
    quantity: s.take(parseOptionalAmount(d.Qty, `${field}.SalesItemLineDetail.Qty`)),
    unitPrice: s.take(parseOptionalAmount(d.UnitPrice, `${field}.SalesItemLineDetail.UnitPrice`)),
  });
  // Qty × UnitPrice − the line's discount must be the amount (QBO keeps UnitPrice to 5 decimals: allow
  // one minor unit). Amount is QBO's own figure: a discount given only as DiscountRate is Qty × UnitPrice −
  // Amount (QBO rounded the line, not the discount), and must still be that rate within a minor unit.
  const gross = quantity.times(unitPrice);
  const discount = lineDiscountOf(s, d, { quantity, unitPrice, amount }, field, currency);
  const expected = gross.minus(discount?.amount ?? 0);
  if (expected.minus(amount).abs().gt(minorUnit(currency))) {
    const off = discount ? ` − discount ${discount.amount} ` : ' ';
    s.fail(
      mapFail(
        'AMOUNTS_INCONSISTENT',
        `${field}: Qty ${quantity.toFixed()} × UnitPrice ${unitPrice.toFixed()}${off}= ${formatMoney(expected, currency)} but Amount is ${formatMoney(amount, currency)} ${currency}`,
        { field: `${field}.Amount` },
      ),
    );
  }
  const name = (d.ItemRef?.name ?? line.Description ?? '').trim() || 'Item';
  const item: ItemLine = { field, name, quantity, unitPrice, amount };
  if (discount) item.discount = discount;
  if (line.Id !== undefined) item.lineId = line.Id;
  if (d.ItemRef?.value !== undefined) item.itemId = d.ItemRef.value;
  if (line.Description?.trim()) item.description = line.Description.trim();
  if (d.TaxCodeRef?.value !== undefined) item.taxCodeId = d.TaxCodeRef.value;
  const inclusive = s.take(parseOptionalAmount(d.TaxInclusiveAmt, `${field}.SalesItemLineDetail.TaxInclusiveAmt`));
  if (inclusive !== undefined) item.taxInclusiveAmount = inclusive;
  return item;
}

/**
 * The line's own discount, in regions that have them (DiscountRate/DiscountAmt): QBO puts the discounted
 * figure in Amount, so the discount is for information only and is not subtracted again. DiscountAmt is
 * kept as stated; a DiscountRate alone becomes Qty × UnitPrice − Amount (itemDiscount's lineAmount).
 */
function lineDiscountOf(
  s: Steps,
  d: { DiscountRate?: unknown; DiscountAmt?: unknown },
  line: { quantity: Decimal; unitPrice: Decimal; amount: Decimal },
  field: string,
  currency: string,
): Discount | undefined {
  const stated = s.take(parseOptionalAmount(d.DiscountAmt, `${field}.SalesItemLineDetail.DiscountAmt`));
  const rate = s.take(parseOptionalAmount(d.DiscountRate, `${field}.SalesItemLineDetail.DiscountRate`));
  const amount = stated === undefined || stated.isZero() ? undefined : stated;
  const percentage = rate === undefined || rate.isZero() ? undefined : rate;
  if (amount === undefined && percentage === undefined) return undefined;
  const discount = s.take(
    itemDiscount({
      ...(amount === undefined ? {} : { amount }),
      ...(percentage === undefined ? {} : { percentage }),
      quantity: line.quantity,
      unitPrice: line.unitPrice,
      lineAmount: line.amount,
      currency,
      field: `${field}.SalesItemLineDetail`,
    }),
  );
  // A rate-only discount derived from Amount must still be that rate (within a minor unit), else the figures disagree.
  if (discount && amount === undefined && percentage !== undefined) {
    const fromRate = roundMoney(percentOf(line.quantity.times(line.unitPrice), percentage), currency);
    if (fromRate.minus(discount.amount).abs().gt(minorUnit(currency))) {
      s.fail(
        mapFail(
          'AMOUNTS_INCONSISTENT',
          `${field}: DiscountRate ${percentage.toFixed()} % of ${formatMoney(line.quantity.times(line.unitPrice), currency)} is ${formatMoney(fromRate, currency)}, but Amount leaves a discount of ${discount.amount} ${currency}`,
          { field: `${field}.Amount` },
        ),
      );
    }
  }
  return discount;
}

/**
 * The billing line item of an item line with its share of the document tax (tax.ts): subTotal = QBO's
 * Amount, total = Amount + its tax, taxRate = the sum of its components' rates (else its TaxCode's).
 */
export function lineItemOf(
  s: Steps,
  item: ItemLine,
  components: DocTaxComponent[],
  lookups: QboLookups,
  currency: string,
  field: string,
): LineItem {
  const lineTax = sumMoney(components.map((c) => c.amount));
  const rate = components.length > 0 ? sumMoney(components.map((c) => c.rate)) : taxCodeRate(item.taxCodeId, lookups);
  const out: LineItem = {
    lineItemDetails: {
      name: item.name,
      taxRate: rate.toNumber(),
      pricePerItem: item.unitPrice.toDecimalPlaces(6).toNumber(),
      ...(item.description && item.description !== item.name ? { description: item.description } : {}),
      ...(item.itemId === undefined ? {} : { erpId: item.itemId }),
      ...(item.lineId === undefined ? {} : { lineItemId: item.lineId }),
    },
    quantity: item.quantity.toDecimalPlaces(6).toNumber(),
    subTotal: wireAmount(s, item.amount, currency, `${field}.subTotal`),
    total: wireAmount(s, item.amount.plus(lineTax), currency, `${field}.total`),
    ...(item.discount ? { discount: item.discount } : {}),
  };
  // The line's tax warnings are the document's, reported once there (totals.ts).
  if (components.length > 0) out.tax = s.takeQuietly(buildTax(components, currency, `${field}.tax`));
  return out;
}

/**
 * On a `GlobalTaxCalculation: TaxInclusive` document QBO keeps `Amount` net of tax and states the line's
 * gross as `SalesItemLineDetail.TaxInclusiveAmt`, "the total amount of the line item including tax"
 * (https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/invoice; README,
 * "Tax-inclusive documents"). Where QBO states it, Amount + the line's share of the document tax must be
 * that figure, within one minor unit per tax component (QBO rounds each line's tax, the spread rounds the
 * document's): otherwise the net reading is wrong for this document and it is AMOUNTS_INCONSISTENT.
 */
export function checkTaxInclusiveAmount(
  item: ItemLine,
  components: readonly DocTaxComponent[],
  currency: string,
): MapFailure | undefined {
  if (item.taxInclusiveAmount === undefined) return undefined;
  const tax = sumMoney(components.map((c) => c.amount));
  const derived = item.amount.plus(tax);
  const slack = minorUnit(currency).times(Math.max(1, components.length));
  if (derived.minus(item.taxInclusiveAmount).abs().lte(slack)) return undefined;
  const field = `${item.field}.SalesItemLineDetail.TaxInclusiveAmt`;
  const f = (d: Decimal) => formatMoney(d, currency);
  return mapFail(
    'AMOUNTS_INCONSISTENT',
    `${field}: Amount ${f(item.amount)} + its tax ${f(tax)} = ${f(derived)}, but TaxInclusiveAmt is ${f(item.taxInclusiveAmount)} ${currency}`,
    { field },
  );
}
