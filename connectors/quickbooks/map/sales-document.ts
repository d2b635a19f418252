import type { MapContext } from '../../../src/connector/types.js';
import type { CustomerDetailsInput, Discount, LineItem, Tax } from '../../../src/billing/schemas/index.js';
import {
  buildDiscount,
  buildTax,
  checkInvoiceTotal,
  checkLinesSum,
  checkTaxSum,
  collectWarnings,
  type Decimal,
  mapFail,
  mapOk,
  type MapResult,
  parseAmount,
  parseCalendarDate,
  parseOptionalAmount,
  parseTimestamp,
  sumMoney,
} from '../../../src/mapping/index.js';
import type { QboCreditMemo, QboInvoice } from '../schemas.js';
import { customerDetailsFromDocument, customerDetailsOf } from './customer-details.js';
import { checkHomeTotal, resolveDocumentCurrency } from './fx.js';
import { type ItemLine, readLines } from './lines.js';
import { readLookups } from './lookups.js';
import { isIndianCompany, isIntraStateSupply, placeOfSupplyOf } from './place-of-supply.js';
import { allocateTaxToLines, classifyTaxLines, type DocTaxComponent, taxCodeRate } from './tax.js';
import { WireMoney } from './wire-money.js';

/**
 * What an Invoice and a CreditMemo (QBO SalesTransaction) have in common, mapped once: currency and
 * rate, item lines with their share of the document tax, the document discount, tax, total, customer,
 * place of supply, dates and version — after the consistency checks (design §3 "Money"):
 *   Σ item amounts = SubTotal line;  Σ TaxLine = TotalTax;  subtotal − discount + tax = TotalAmt.
 * Amounts are decimals until `WireMoney` emits them rounded to the currency's minor units.
 *
 * `GlobalTaxCalculation: TaxInclusive` documents are checked with the tax-exclusive reading (Amount
 * net of tax); if they do not add up that way they are UNSUPPORTED rather than guessed (VERIFY how QBO
 * fills Amount for inclusive documents).
 */
export interface SalesDocumentParts {
  currency: string;
  exchangeRate?: number;
  version: string;
  txnDate?: string;
  dueDate?: string;
  subtotal: Decimal;
  /** Sum of the DiscountLineDetail amounts (positive), zero when none. */
  discountTotal: Decimal;
  discount?: Discount;
  taxTotal: Decimal;
  tax?: Tax;
  total: Decimal;
  lineItems: LineItem[];
  customerDetails: CustomerDetailsInput;
  placeOfSupply?: string;
  wire: WireMoney;
  warnings: string[];
}

export function mapSalesDocument(doc: QboInvoice | QboCreditMemo, ctx: MapContext, label: string): MapResult<SalesDocumentParts> {
  const lookups = readLookups(ctx.lookups);
  const version = parseTimestamp(doc.MetaData.LastUpdatedTime, { field: `${label}.MetaData.LastUpdatedTime` });
  if (!version.ok) return version;
  const txnDate = doc.TxnDate === undefined ? undefined : parseCalendarDate(doc.TxnDate, 'TxnDate');
  if (txnDate && !txnDate.ok) return txnDate;
  const dueDate = doc.DueDate === undefined ? undefined : parseCalendarDate(doc.DueDate, 'DueDate');
  if (dueDate && !dueDate.ok) return dueDate;
  const total = parseAmount(doc.TotalAmt, 'TotalAmt');
  if (!total.ok) return total;

  const fx = resolveDocumentCurrency({
    currencyRef: doc.CurrencyRef,
    exchangeRate: doc.ExchangeRate,
    total: total.value,
    homeTotal: doc.HomeTotalAmt,
    lookups,
    baseCurrency: ctx.baseCurrency,
  });
  if (!fx.ok) return fx;
  const { currency } = fx.value;

  const lines = readLines(doc.Line, currency);
  if (!lines.ok) return lines;
  const { items, discounts } = lines.value;
  const subtotal = sumMoney(items.map((i) => i.amount));
  const discountTotal = sumMoney(discounts.map((d) => d.amount));

  const customer = doc._customer;
  const place = placeOfSupplyOf(doc, customer);
  const indian = isIndianCompany(lookups);
  const classified = classifyTaxLines({
    taxLines: doc.TxnTaxDetail?.TaxLine ?? [],
    lookups,
    indian,
    intraState: indian ? isIntraStateSupply(lookups, place, customer) : undefined,
  });
  if (!classified.ok) return classified;
  const { components } = classified.value;
  const componentSum = sumMoney(components.map((c) => c.amount));
  const totalTax = parseOptionalAmount(doc.TxnTaxDetail?.TotalTax, 'TxnTaxDetail.TotalTax');
  if (!totalTax.ok) return totalTax;
  const taxTotal = totalTax.value ?? componentSum;

  const inconsistent =
    (lines.value.subtotalLine === undefined
      ? undefined
      : checkLinesSum({ lineSubtotals: items.map((i) => i.amount), subtotal: lines.value.subtotalLine, currency, field: 'Line.SubTotalLineDetail' })) ??
    checkTaxSum({ components: components.map((c) => c.amount), taxTotal, currency }) ??
    checkInvoiceTotal({ subtotal, discount: discountTotal, tax: taxTotal, total: total.value, currency }) ??
    checkHomeTotal({ exchangeRate: fx.value.exchangeRate, total: total.value, homeTotal: doc.HomeTotalAmt, baseCurrency: ctx.baseCurrency });
  if (inconsistent) {
    if (doc.GlobalTaxCalculation === 'TaxInclusive' && inconsistent.field === 'total') {
      return mapFail('UNSUPPORTED', `tax-inclusive ${label} does not add up read as tax-exclusive: ${inconsistent.message}`, { field: 'GlobalTaxCalculation' });
    }
    return inconsistent;
  }

  const wire = new WireMoney(currency);
  const allocation = allocateTaxToLines(components, items, lookups, currency);
  const lineItems: LineItem[] = [];
  for (const [i, item] of items.entries()) {
    const built = lineItem(item, allocation.perLine[i] ?? [], lookups, wire, `lineItems.${i}`);
    if (!built.ok) return built;
    lineItems.push(built.value);
  }

  let tax: Tax | undefined;
  let taxWarnings: string[] = [];
  if (components.length > 0) {
    const t = buildTax(components, currency, 'invoiceTax');
    if (!t.ok) return t;
    tax = t.value;
    taxWarnings = t.warnings ?? [];
  }

  let discount: Discount | undefined;
  let discountWarnings: string[] = [];
  if (!discountTotal.isZero()) {
    const percent = discounts.length === 1 ? discounts[0]!.percent : undefined;
    // ApplyTaxAfterDiscount true = the discount comes off before tax (isPostTax false); QBO's default is false.
    const d = buildDiscount({
      amount: discountTotal,
      ...(percent === undefined ? {} : { percentage: percent }),
      base: subtotal,
      isPostTax: doc.ApplyTaxAfterDiscount !== true,
      currency,
      field: 'discount',
    });
    if (!d.ok) return d;
    discount = d.value;
    discountWarnings = d.warnings ?? [];
  }

  const details = customer ? customerDetailsOf(customer, ctx, lookups) : customerDetailsFromDocument(doc, ctx);
  if (!details.ok) return details;

  const parts: SalesDocumentParts = {
    currency,
    version: version.value,
    subtotal,
    discountTotal,
    taxTotal,
    total: total.value,
    lineItems,
    customerDetails: details.value,
    wire,
    warnings: [
      ...collectWarnings(fx, lines, classified, details),
      ...lines.value.warnings,
      ...classified.value.warnings,
      ...allocation.warnings,
      ...taxWarnings,
      ...discountWarnings,
    ],
  };
  if (fx.value.exchangeRate !== undefined) parts.exchangeRate = fx.value.exchangeRate;
  if (txnDate) parts.txnDate = txnDate.value;
  if (dueDate) parts.dueDate = dueDate.value;
  if (discount) parts.discount = discount;
  if (tax) parts.tax = tax;
  if (place) parts.placeOfSupply = place.code;
  return mapOk(parts);
}

function lineItem(item: ItemLine, components: DocTaxComponent[], lookups: ReturnType<typeof readLookups>, wire: WireMoney, field: string): MapResult<LineItem> {
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
    subTotal: wire.num(item.amount, `${field}.subTotal`),
    total: wire.num(item.amount.plus(lineTax), `${field}.total`),
  };
  if (components.length > 0) {
    const t = buildTax(components, wire.currency, `${field}.tax`);
    if (!t.ok) return t;
    out.tax = t.value;
  }
  return mapOk(out);
}
