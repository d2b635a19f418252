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

export function amountsOf(
  s: Steps,
  doc: QboInvoice | QboCreditMemo,
  ctx: MapContext<unknown>,
  label: string,
): DocumentAmounts {
  const lookups = readLookups(ctx.lookups);
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

  const { items, layout, discounts, subtotalLine, shipping: shippingLines } = readLines(s, doc.Line, currency);
  const subtotal = sumMoney(items.map((i) => i.amount));
  const shipping = sumMoney(shippingLines);
  const discountTotal = sumMoney(discounts.map((d) => d.amount));

  const customer = doc._customer;
  const place = placeOfSupplyOf(doc, customer);
  const indian = isIndianCompany(lookups);
  const components = classifyTaxLines(s, {
    taxLines: doc.TxnTaxDetail?.TaxLine ?? [],
    lookups,
    indian,
    intraState: indian ? isIntraStateSupply(lookups, place, customer) : undefined,
  });
  const taxTotal =
    s.take(parseOptionalAmount(doc.TxnTaxDetail?.TotalTax, 'TxnTaxDetail.TotalTax')) ??
    sumMoney(components.map((c) => c.amount));

  const inconsistent =
    (subtotalLine === undefined
      ? undefined
      : checkLinesSum({
          lineSubtotals: items.map((i) => i.amount),
          subtotal: subtotalLine,
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
  checkHomeTotal(s, { exchangeRate, total, homeTotal: doc.HomeTotalAmt, baseCurrency: ctx.baseCurrency });

  const allocation = allocateTaxToLines(components, items, lookups, currency);
  allocation.warnings.forEach((w) => s.warn(w));
  if (doc.GlobalTaxCalculation === 'TaxInclusive')
    items.forEach((item, i) => s.check(checkTaxInclusiveAmount(item, allocation.perLine[i] ?? [], currency)));
  const lineItems = layout.map((entry, i) =>
    typeof entry === 'number'
      ? lineItemOf(s, items[entry]!, allocation.perLine[entry] ?? [], lookups, currency, `lineItems.${i}`)
      : entry,
  );
  const tax = components.length > 0 ? s.take(buildTax(components, currency, 'invoiceTax')) : undefined;

  let discount: Discount | undefined;
  if (!discountTotal.isZero()) {
    const percent = discounts.length === 1 ? discounts[0]!.percent : undefined;
    // ApplyTaxAfterDiscount true = the discount comes off before tax (isPostTax false); QBO's default is false.
    discount = s.take(
      buildDiscount({
        amount: discountTotal,
        ...(percent === undefined ? {} : { percentage: percent }),
        base: subtotal,
        isPostTax: doc.ApplyTaxAfterDiscount !== true,
        currency,
        field: 'discount',
      }),
    );
  }

  const customerDetails = customer
    ? customerOf(s, customer, ctx, lookups)
    : customerOfDocument(s, doc, ctx, lookups, currency);
  return {
    currency,
    ...(exchangeRate === undefined ? {} : { exchangeRate }),
    version,
    ...(txnDate ? { txnDate } : {}),
    ...(dueDate ? { dueDate } : {}),
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
