import type { CustomerDetailsInput, Discount, LineItem, Tax } from '../../../src/billing/schemas/index.js';
import type { MapContext } from '../../../src/connector/types.js';
import {
  buildDiscount,
  buildTax,
  checkInvoiceTotal,
  checkLinesSum,
  checkTaxSum,
  type Decimal,
  mapFail,
  parseAmount,
  parseCalendarDate,
  parseOptionalAmount,
  parseTimestamp,
  sumMoney,
} from '../../../src/mapping/index.js';
import type { Steps } from '../../../src/mapping/steps.js';
import type { QboCreditMemo, QboInvoice } from '../schemas.js';
import { readLookups } from '../streams/lookups.js';
import { checkHomeTotal, currencyOf, exchangeRateOf } from './fx.js';
import { checkTaxInclusiveAmount, lineItemOf, readLines } from './lines.js';
import { customerOf, customerOfDocument } from './party.js';
import { allocateTaxToLines, classifyTaxLines, isIndianCompany, isIntraStateSupply, placeOfSupplyOf } from './tax.js';

/**
 * What an Invoice and a CreditMemo (QBO's SalesTransaction) have in common, mapped once: currency and
 * rate, item lines with their share of the document tax, the document discount, tax, total, customer,
 * place of supply, dates and version — after the consistency checks (src/mapping/checks.ts):
 *   Σ item amounts = SubTotal line;  Σ TaxLine = TotalTax;  subtotal − discount + tax + shipping = TotalAmt.
 * Amounts stay decimals; they become JSON numbers (`wireAmount`, src/mapping) rounded to the currency's minor units.
 *
 * `GlobalTaxCalculation: TaxInclusive` documents are read as QBO writes them: `Amount` net of tax, the
 * line's gross in `TaxInclusiveAmt`, checked line by line where QBO states it (lines.ts
 * `checkTaxInclusiveAmount`); one that does not add up read that way is UNSUPPORTED rather than guessed
 * (README.md, "Tax-inclusive documents").
 */
export interface DocumentAmounts {
  currency: string;
  exchangeRate?: number;
  version: string;
  txnDate?: string;
  dueDate?: string;
  subtotal: Decimal;
  /** Sum of the DiscountLineDetail amounts (positive), zero when none. */
  discountTotal: Decimal;
  /** Sum of the shipping lines (SHIPPING_ITEM_ID), zero when none: outside the subtotal, inside TotalAmt. */
  shipping: Decimal;
  discount?: Discount;
  taxTotal: Decimal;
  tax?: Tax;
  total: Decimal;
  lineItems: LineItem[];
  customerDetails: CustomerDetailsInput;
  placeOfSupply?: string;
}

type QboDocument = QboInvoice | QboCreditMemo;
type Lookups = ReturnType<typeof readLookups>;
type Lines = ReturnType<typeof readLines>;
type TaxComponents = ReturnType<typeof classifyTaxLines>;

export function amountsOf(s: Steps, doc: QboDocument, ctx: MapContext<unknown>, label: string): DocumentAmounts {
  const lookups = readLookups(ctx.lookups);
  const { total, ...head } = headerOf(s, doc, ctx, lookups, label);
  const { currency, exchangeRate } = head;
  const lines = readLines(s, doc.Line, currency);
  const { items, discounts } = lines;
  const subtotal = sumMoney(items.map((i) => i.amount));
  const shipping = sumMoney(lines.shipping);
  const discountTotal = sumMoney(discounts.map((d) => d.amount));
  const customer = doc._customer;
  const place = placeOfSupplyOf(doc, customer);
  const { components, taxTotal } = taxOf(s, doc, lookups, place);
  checkAmounts(s, doc, label, { lines, components, subtotal, discountTotal, taxTotal, shipping, total, currency });
  checkHomeTotal(s, { exchangeRate, total, homeTotal: doc.HomeTotalAmt, baseCurrency: ctx.baseCurrency });
  const lineItems = lineItemsOf(s, doc, lines, components, lookups, currency);
  const tax = components.length > 0 ? s.take(buildTax(components, currency, 'invoiceTax')) : undefined;
  const discount = discountOf(s, doc, discounts, { discountTotal, subtotal, currency });
  const customerDetails = customer
    ? customerOf(s, customer, ctx, lookups)
    : customerOfDocument(s, doc, ctx, lookups, currency);
  return {
    ...head,
    subtotal,
    discountTotal,
    shipping,
    ...(discount ? { discount } : {}),
    taxTotal,
    ...(tax ? { tax } : {}),
    total,
    lineItems,
    customerDetails,
    ...(place ? { placeOfSupply: place.code } : {}),
  };
}

/** Version, dates, total, currency and rate: what the document says of itself before its lines. */
function headerOf(s: Steps, doc: QboDocument, ctx: MapContext<unknown>, lookups: Lookups, label: string) {
  const version = s.take(parseTimestamp(doc.MetaData.LastUpdatedTime, { field: `${label}.MetaData.LastUpdatedTime` }));
  const txnDate = doc.TxnDate === undefined ? undefined : s.take(parseCalendarDate(doc.TxnDate, 'TxnDate'));
  const dueDate = doc.DueDate === undefined ? undefined : s.take(parseCalendarDate(doc.DueDate, 'DueDate'));
  const total = s.take(parseAmount(doc.TotalAmt, 'TotalAmt'));
  const currency = currencyOf(s, doc.CurrencyRef, lookups);
  const exchangeRate = exchangeRateOf(
    s,
    { currency, exchangeRate: doc.ExchangeRate, total, homeTotal: doc.HomeTotalAmt },
    ctx,
    lookups,
  );
  return {
    currency,
    ...(exchangeRate === undefined ? {} : { exchangeRate }),
    version,
    ...(txnDate ? { txnDate } : {}),
    ...(dueDate ? { dueDate } : {}),
    total,
  };
}

/** The document's tax lines as billing tax components, and its tax total (QBO's TotalTax, else their sum). */
function taxOf(s: Steps, doc: QboDocument, lookups: Lookups, place: ReturnType<typeof placeOfSupplyOf>) {
  const indian = isIndianCompany(lookups);
  const components = classifyTaxLines(s, {
    taxLines: doc.TxnTaxDetail?.TaxLine ?? [],
    lookups,
    indian,
    intraState: indian ? isIntraStateSupply(lookups, place, doc._customer) : undefined,
  });
  const taxTotal =
    s.take(parseOptionalAmount(doc.TxnTaxDetail?.TotalTax, 'TxnTaxDetail.TotalTax')) ??
    sumMoney(components.map((c) => c.amount));
  return { components, taxTotal };
}

interface Sums {
  lines: Lines;
  components: TaxComponents;
  subtotal: Decimal;
  discountTotal: Decimal;
  taxTotal: Decimal;
  shipping: Decimal;
  total: Decimal;
  currency: string;
}

/**
 * Σ item amounts = SubTotal line; Σ TaxLine = TotalTax; subtotal − discount + tax + shipping = TotalAmt.
 * A tax-inclusive document whose total does not add up read that way is UNSUPPORTED, not inconsistent.
 */
function checkAmounts(s: Steps, doc: QboDocument, label: string, sums: Sums): void {
  const { lines, components, subtotal, discountTotal, taxTotal, shipping, total, currency } = sums;
  const inconsistent =
    (lines.subtotalLine === undefined
      ? undefined
      : checkLinesSum({
          lineSubtotals: lines.items.map((i) => i.amount),
          subtotal: lines.subtotalLine,
          currency,
          field: 'Line.SubTotalLineDetail',
        })) ??
    checkTaxSum({ components: components.map((c) => c.amount), taxTotal, currency }) ??
    checkInvoiceTotal({ subtotal, discount: discountTotal, tax: taxTotal, adjustments: [shipping], total, currency });
  if (inconsistent && doc.GlobalTaxCalculation === 'TaxInclusive' && inconsistent.field === 'total') {
    s.fail(
      mapFail('UNSUPPORTED', `tax-inclusive ${label} does not add up read as tax-exclusive: ${inconsistent.message}`, {
        field: 'GlobalTaxCalculation',
      }),
    );
  }
  s.check(inconsistent);
}

/** The billing line items in the document's order, each item line with its share of the document tax. */
function lineItemsOf(
  s: Steps,
  doc: QboDocument,
  lines: Lines,
  components: TaxComponents,
  lookups: Lookups,
  currency: string,
): LineItem[] {
  const { items, layout } = lines;
  const allocation = allocateTaxToLines(components, items, lookups, currency);
  allocation.warnings.forEach((w) => s.warn(w));
  if (doc.GlobalTaxCalculation === 'TaxInclusive')
    items.forEach((item, i) => s.check(checkTaxInclusiveAmount(item, allocation.perLine[i] ?? [], currency)));
  return layout.map((entry, i) =>
    typeof entry === 'number'
      ? lineItemOf(s, items[entry]!, allocation.perLine[entry] ?? [], lookups, currency, `lineItems.${i}`)
      : entry,
  );
}

/** The document discount (its DiscountLineDetail lines), undefined when there is none. */
function discountOf(
  s: Steps,
  doc: QboDocument,
  discounts: Lines['discounts'],
  sums: { discountTotal: Decimal; subtotal: Decimal; currency: string },
): Discount | undefined {
  if (sums.discountTotal.isZero()) return undefined;
  const percent = discounts.length === 1 ? discounts[0]!.percent : undefined;
  // ApplyTaxAfterDiscount true = the discount comes off before tax (isPostTax false); QBO's default is false.
  return s.take(
    buildDiscount({
      amount: sums.discountTotal,
      ...(percent === undefined ? {} : { percentage: percent }),
      base: sums.subtotal,
      isPostTax: doc.ApplyTaxAfterDiscount !== true,
      currency: sums.currency,
      field: 'discount',
    }),
  );
}
