import type { LineItem } from '../../../src/billing/schemas/invoice.js';
import {
  buildTax,
  itemDiscount,
  mapFail,
  mapOk,
  Money,
  parseAmount,
  parseAmountOrZero,
  parseOptionalAmount,
  roundMoney,
  sumMoney,
  tryWireNumber,
  type Decimal,
  type MapResult,
  type TaxComponent,
} from '../../../src/mapping/index.js';
import type { XeroLineItem } from '../schemas.js';
import { lineTaxComponents } from './tax-components.js';
import type { XeroLookups } from './xero-lookups.js';

/**
 * Xero line items → billing line items (reference §3.4, trap 14).
 * - `LineAmount` is after the line's discount, and, with LineAmountTypes `Inclusive`, includes the tax:
 *   net = LineAmount − TaxAmount (exact decimals); `Exclusive`/`NoTax`: net = LineAmount; total = net + tax.
 * - DiscountRate/DiscountAmount become the line's `discount` for information only: LineAmount already has
 *   it taken off, so nothing is subtracted again (and the invoice gets no `discount`).
 * - `pricePerItem` = UnitAmount as Xero shows it (tax-inclusive on Inclusive documents); `taxRate` = the
 *   TaxRate's effective rate.
 */
export type LineAmountTypes = 'Exclusive' | 'Inclusive' | 'NoTax';

export interface MappedLine {
  item: LineItem;
  net: Decimal;
  tax: Decimal;
  components: TaxComponent[];
}

export function mapLines(raw: readonly XeroLineItem[], types: LineAmountTypes, currency: string, lookups: XeroLookups): MapResult<MappedLine[]> {
  const out: MappedLine[] = [];
  const warnings: string[] = [];
  for (const [i, l] of raw.entries()) {
    const field = `LineItems.${i}`;
    const amount = parseAmount(l.LineAmount, `${field}.LineAmount`);
    if (!amount.ok) return amount;
    const tax = parseAmountOrZero(l.TaxAmount, `${field}.TaxAmount`);
    if (!tax.ok) return tax;
    const quantity = l.Quantity === null || l.Quantity === undefined ? mapOk(new Money(1)) : parseAmount(l.Quantity, `${field}.Quantity`);
    if (!quantity.ok) return quantity;
    const unit = parseOptionalAmount(l.UnitAmount, `${field}.UnitAmount`);
    if (!unit.ok) return unit;
    if (types === 'NoTax' && !tax.value.isZero()) {
      return mapFail('AMOUNTS_INCONSISTENT', `${field} has TaxAmount ${tax.value.toFixed()} on a NoTax document`, { field: `${field}.TaxAmount` });
    }
    const net = types === 'Inclusive' ? amount.value.minus(tax.value) : amount.value;
    const total = net.plus(tax.value);
    const classified = lineTaxComponents({
      taxType: l.TaxType,
      taxAmount: tax.value,
      lineNet: net,
      rate: l.TaxType ? lookups.taxRates[l.TaxType] : undefined,
      currency,
    });
    if (classified.warning) warnings.push(`${field}: ${classified.warning}`);
    const lineTax = buildTax(classified.components, currency, `lineItems.${i}.tax`);
    if (!lineTax.ok) return lineTax;
    warnings.push(...(lineTax.warnings ?? []));
    const taxSum = sumMoney(classified.components.map((c) => c.amount));
    if (!roundMoney(taxSum, currency).eq(roundMoney(tax.value, currency))) {
      return mapFail('AMOUNTS_INCONSISTENT', `${field}: tax components add up to ${taxSum.toFixed()} but TaxAmount is ${tax.value.toFixed()}`, { field });
    }
    const rateAmount = (d: Decimal, f: string) => tryWireNumber(d, currency, `${field}.${f}`);
    const subTotal = rateAmount(net, 'subTotal');
    const lineTotal = rateAmount(total, 'total');
    if (!subTotal.ok) return subTotal;
    if (!lineTotal.ok) return lineTotal;
    let discount;
    const rate = parseOptionalAmount(l.DiscountRate, `${field}.DiscountRate`);
    const discountAmount = parseOptionalAmount(l.DiscountAmount, `${field}.DiscountAmount`);
    if (!rate.ok) return rate;
    if (!discountAmount.ok) return discountAmount;
    if ((rate.value || discountAmount.value) && unit.value) {
      const d = itemDiscount({
        amount: discountAmount.value,
        percentage: rate.value,
        quantity: quantity.value,
        unitPrice: unit.value,
        isPostTax: false,
        currency,
        field: `lineItems.${i}.discount`,
      });
      if (!d.ok) return d;
      discount = d.value;
      warnings.push(...(d.warnings ?? []));
    }
    const name = l.Description?.trim() || l.Item?.Name?.trim() || l.ItemCode?.trim() || `Line ${i + 1}`;
    const item: LineItem = {
      lineItemDetails: {
        name,
        taxRate: classified.ratePercent.toNumber(),
        pricePerItem: (unit.value ?? new Money(0)).toNumber(),
        ...(l.Description?.trim() && l.Description.trim() !== name ? { description: l.Description.trim() } : {}),
        ...(l.ItemCode?.trim() ? { erpId: l.ItemCode.trim() } : {}),
        ...(l.LineItemID ? { lineItemId: l.LineItemID } : {}),
      },
      quantity: quantity.value.toNumber(),
      subTotal: subTotal.value,
      total: lineTotal.value,
      tax: lineTax.value,
      ...(discount ? { discount } : {}),
    };
    out.push({ item, net, tax: tax.value, components: classified.components });
  }
  return mapOk(out, warnings);
}
