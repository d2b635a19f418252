import { Money, roundMoney, ZERO, type Decimal } from '../kit/minor-units.js';
import type { LineAmountTypes, XeroLineItem } from './xero-records.js';

/**
 * Xero's arithmetic for one document, done in decimals so every figure the sandbox serves is exact:
 * - LineAmount = Quantity × UnitAmount, less DiscountRate % or DiscountAmount, rounded to the currency
 *   (a line's discount is already taken off its LineAmount);
 * - Exclusive: TaxAmount = LineAmount × rate / 100, rounded; the line's net is LineAmount;
 * - Inclusive: LineAmount includes the tax: TaxAmount = LineAmount × rate / (100 + rate), rounded;
 *   the line's net is LineAmount − TaxAmount;
 * - NoTax: TaxAmount 0;
 * - SubTotal = Σ nets, TotalTax = Σ TaxAmount, Total = SubTotal + TotalTax (https://developer.xero.com/documentation/api/accounting/invoices),
 *   TotalDiscount = Σ (gross − LineAmount).
 */
export interface LineSpec {
  LineItemID: string;
  Description: string;
  Quantity: string;
  UnitAmount: string;
  ItemCode?: string;
  AccountCode: string;
  TaxType: string;
  DiscountRate?: string;
  DiscountAmount?: string;
}

export interface DocumentTotals {
  SubTotal: number;
  TotalTax: number;
  Total: number;
  TotalDiscount: number;
}

export function computeLine(
  spec: LineSpec,
  types: LineAmountTypes,
  taxRatePercent: Decimal,
  currency: string,
): XeroLineItem {
  const quantity = new Money(spec.Quantity);
  const unit = new Money(spec.UnitAmount);
  const gross = quantity.times(unit);
  let lineAmount = roundMoney(gross, currency);
  if (spec.DiscountRate !== undefined)
    lineAmount = roundMoney(gross.times(new Money(100).minus(spec.DiscountRate)).div(100), currency);
  else if (spec.DiscountAmount !== undefined) lineAmount = roundMoney(gross.minus(spec.DiscountAmount), currency);
  let tax = ZERO;
  if (types === 'Exclusive') tax = roundMoney(lineAmount.times(taxRatePercent).div(100), currency);
  else if (types === 'Inclusive')
    tax = roundMoney(lineAmount.times(taxRatePercent).div(new Money(100).plus(taxRatePercent)), currency);
  const line: XeroLineItem = {
    LineItemID: spec.LineItemID,
    Description: spec.Description,
    Quantity: quantity.toNumber(),
    UnitAmount: unit.toNumber(),
    ...(spec.ItemCode ? { ItemCode: spec.ItemCode } : {}),
    AccountCode: spec.AccountCode,
    TaxType: types === 'NoTax' ? 'NONE' : spec.TaxType,
    TaxAmount: tax.toNumber(),
    LineAmount: lineAmount.toNumber(),
    Tracking: [],
  };
  if (spec.DiscountRate !== undefined) line.DiscountRate = new Money(spec.DiscountRate).toNumber();
  if (spec.DiscountAmount !== undefined) line.DiscountAmount = new Money(spec.DiscountAmount).toNumber();
  return line;
}

export function computeTotals(
  lines: readonly XeroLineItem[],
  types: LineAmountTypes,
  currency: string,
): DocumentTotals {
  let sub = ZERO;
  let tax = ZERO;
  let discount = ZERO;
  for (const l of lines) {
    const amount = new Money(l.LineAmount);
    const lineTax = new Money(l.TaxAmount);
    sub = sub.plus(types === 'Inclusive' ? amount.minus(lineTax) : amount);
    tax = tax.plus(lineTax);
    discount = discount.plus(roundMoney(new Money(l.Quantity).times(l.UnitAmount), currency).minus(amount));
  }
  return {
    SubTotal: sub.toNumber(),
    TotalTax: tax.toNumber(),
    Total: sub.plus(tax).toNumber(),
    TotalDiscount: discount.toNumber(),
  };
}

/** Decimal arithmetic on wire numbers: a + b − c ..., exact. */
export function addAmounts(...parts: number[]): number {
  return parts.reduce((acc, p) => acc.plus(p), ZERO as Decimal).toNumber();
}

export function subAmounts(a: number, b: number): number {
  return new Money(a).minus(b).toNumber();
}
