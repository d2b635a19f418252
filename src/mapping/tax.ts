import type { GstTax, Tax } from '../billing/schemas/tax.js';
import { resolveIndianState } from './indian-state.js';
import { allocateMoney, dec, Money, roundMoney, sumMoney, tryWireNumber, type Decimal } from './money.js';
import { mapFail, mapOk, type MapFailure, type MapResult } from './quarantine-reason.js';

/**
 * Indian GST into the billing `Tax` object.
 *
 * Connectors classify each vendor tax component first (Zoho `/settings/taxes` `tax_specific_type`,
 * QuickBooks TaxRate, Xero TaxComponents); tax names are chosen by the org, so never parse "CGST9".
 * UTGST (intra-UT supply in a union territory without a legislature) takes the SGST slot: the billing
 * model has no UTGST field and the two are never charged together.
 * Anything that is neither GST nor cess (VAT, sales tax, Australian GST...) is `other`, by name.
 */
export type TaxKind = 'cgst' | 'sgst' | 'utgst' | 'igst' | 'cess' | 'other';

export interface TaxComponent {
  kind: TaxKind;
  /** Tax amount in the document's currency, as the vendor reports it. */
  amount: Decimal;
  /** Percentage rate: 9 means 9 %. */
  rate: Decimal;
  /** Required for `other` (it becomes OtherTax.name); informative otherwise. */
  name?: string;
}

/** Rates are informational on the billing side; 4 decimals keeps 0.25 %, 12.5 %, 5.1234 % intact. */
const RATE_DECIMALS = 4;

interface Aggregate {
  amount: Decimal;
  rate: Decimal;
}

/**
 * Sums the components of one kind. Amounts are rounded to the currency one by one, then added, so the
 * totals we send are sums of the figures we send. When the components carry different rates (lines at
 * 9 % and 14 % CGST) the rate is the effective one, Σamount ÷ Σ(amount ÷ rate): the taxable base
 * each component implies.
 */
function aggregate(parts: readonly TaxComponent[], currency: string, label: string, warnings: string[]): Aggregate {
  const amount = sumMoney(parts.map((p) => roundMoney(p.amount, currency)));
  const rates = [...new Set(parts.map((p) => p.rate.toFixed()))];
  if (rates.length <= 1) return { amount, rate: parts[0]?.rate ?? dec(0) };
  const taxable = sumMoney(parts.filter((p) => !p.rate.isZero()).map((p) => p.amount.times(100).div(p.rate)));
  const rate = taxable.isZero() ? dec(0) : amount.times(100).div(taxable).toDecimalPlaces(RATE_DECIMALS);
  warnings.push(`${label} has mixed rates ${rates.join(', ')}; sending the effective rate ${rate.toFixed()}`);
  return { amount, rate };
}

/** Builds the billing `Tax` (invoice-level or one line's) from classified components. */
export function buildTax(components: readonly TaxComponent[], currency: string, field = 'tax'): MapResult<Tax> {
  for (const c of components) {
    if (c.rate.isNegative() && !c.rate.isZero()) {
      return mapFail('INVALID_FIELD', `${field}: ${c.kind} rate ${c.rate.toFixed()} is negative`, { field });
    }
    if (c.kind === 'other' && !c.name?.trim()) {
      return mapFail('MISSING_FIELD', `${field}: a tax of kind "other" needs a name`, { field });
    }
  }
  const warnings: string[] = [];
  const of = (...kinds: TaxKind[]) => components.filter((c) => kinds.includes(c.kind));
  const cgst = aggregate(of('cgst'), currency, 'CGST', warnings);
  const sgst = aggregate(of('sgst', 'utgst'), currency, 'SGST', warnings);
  const igst = aggregate(of('igst'), currency, 'IGST', warnings);
  const cess = aggregate(of('cess'), currency, 'cess', warnings);
  const otherNames = [...new Set(of('other').map((c) => c.name!.trim()))];
  const others = otherNames.map((name) => ({
    name,
    ...aggregate(
      of('other').filter((c) => c.name!.trim() === name),
      currency,
      name,
      warnings,
    ),
  }));

  const hasGst = of('cgst', 'sgst', 'utgst', 'igst').length > 0;
  if (hasGst)
    warnings.push(...gstShapeWarnings(cgst, sgst, igst, of('cgst').length > 0, of('sgst', 'utgst').length > 0));
  const totalGst = cgst.amount.plus(sgst.amount).plus(igst.amount);
  const total = totalGst.plus(cess.amount).plus(sumMoney(others.map((o) => o.amount)));

  const wire = new WireAmounts(currency, field);
  const tax: Tax = { total: wire.num(total, 'total'), tds: 0 };
  if (hasGst) {
    const gstTax: GstTax = {
      totalGst: wire.num(totalGst, 'gstTax.totalGst'),
      totalGstRate: cgst.rate.plus(sgst.rate).plus(igst.rate).toNumber(),
      cgst: wire.num(cgst.amount, 'gstTax.cgst'),
      cgstRate: cgst.rate.toNumber(),
      sgst: wire.num(sgst.amount, 'gstTax.sgst'),
      sgstRate: sgst.rate.toNumber(),
      igst: wire.num(igst.amount, 'gstTax.igst'),
      igstRate: igst.rate.toNumber(),
    };
    tax.gstTax = gstTax;
    tax.cgst = gstTax.cgst;
    tax.sgst = gstTax.sgst;
    tax.igst = gstTax.igst;
  }
  if (of('cess').length > 0)
    tax.cessTax = { cess: wire.num(cess.amount, 'cessTax.cess'), cessRate: cess.rate.toNumber() };
  if (others.length > 0) {
    tax.otherTaxes = others.map((o) => ({
      name: o.name,
      genericTax: wire.num(o.amount, `otherTaxes.${o.name}`),
      genericTaxRate: o.rate.toNumber(),
    }));
  }
  return wire.failure ?? mapOk(tax, warnings);
}

/** Collects the first unrepresentable amount instead of throwing mid-build. */
class WireAmounts {
  failure: MapFailure | undefined;
  constructor(
    private readonly currency: string,
    private readonly field: string,
  ) {}
  num(amount: Decimal, path: string): number {
    const r = tryWireNumber(amount, this.currency, `${this.field}.${path}`);
    if (r.ok) return r.value;
    this.failure ??= r;
    return 0;
  }
}

/** A valid GST charge is CGST+SGST of equal rate (intra-state) or IGST alone (inter-state). */
function gstShapeWarnings(
  cgst: Aggregate,
  sgst: Aggregate,
  igst: Aggregate,
  hasCgst: boolean,
  hasSgst: boolean,
): string[] {
  const warnings: string[] = [];
  if (!igst.amount.isZero() && (hasCgst || hasSgst)) warnings.push('IGST and CGST/SGST both present on one document');
  if (hasCgst !== hasSgst) warnings.push(hasCgst ? 'CGST present without SGST' : 'SGST present without CGST');
  if (hasCgst && hasSgst && !cgst.rate.eq(sgst.rate)) {
    warnings.push(`CGST rate ${cgst.rate.toFixed()} differs from SGST rate ${sgst.rate.toFixed()}`);
  }
  return warnings;
}

/**
 * Splits a combined tax amount over component rates (Xero's "GST 18%" = CGST 9 + SGST 9, whose line
 * TaxAmount is the combined figure) in proportion to the rates, exact to the minor unit. Ties go to the
 * earlier component (see allocateMoney), so list CGST before SGST.
 */
export function splitByComponentRates(
  amount: Decimal,
  parts: ReadonlyArray<Omit<TaxComponent, 'amount'>>,
  currency: string,
): TaxComponent[] {
  const amounts = allocateMoney(
    amount,
    parts.map((p) => p.rate),
    currency,
  );
  return parts.map((p, i) => ({ ...p, amount: amounts[i]! }));
}

/**
 * Intra-state supply: a combined GST amount at `rate` becomes CGST and SGST at rate/2 each.
 * When the amount has an odd number of minor units, **CGST gets the extra paisa** (CGST = the half rounded
 * away from zero, SGST = the rest), so CGST + SGST is always exactly the amount: 18.01 → 9.01 + 9.00,
 * -18.01 → -9.01 + -9.00.
 */
export function splitIntraState(amount: Decimal, rate: Decimal, currency: string): [TaxComponent, TaxComponent] {
  const half = new Money(rate).div(2);
  const [cgst, sgst] = splitByComponentRates(
    amount,
    [
      { kind: 'cgst', rate: half },
      { kind: 'sgst', rate: half },
    ],
    currency,
  );
  return [cgst!, sgst!];
}

/** Inter-state supply (and exports, SEZ): the whole amount is IGST at the full rate. */
export function interStateTax(amount: Decimal, rate: Decimal, currency: string): [TaxComponent] {
  return [{ kind: 'igst', amount: roundMoney(amount, currency), rate: new Money(rate) }];
}

/**
 * Same state or UT on both sides → intra-state (CGST+SGST), else inter-state (IGST). Each side may be a
 * GST code ("29"), a two-letter code ("KA") or a name. An unresolvable side is a failure, never a guess:
 * guessing would put the tax in the wrong ledger. Supplies to SEZ units and exports are inter-state whatever
 * the states say; the connector decides those from the vendor's GST treatment before calling this.
 */
export function isIntraState(supplierState: unknown, placeOfSupply: unknown): MapResult<boolean> {
  const supplier = resolveIndianState(supplierState, 'supplierState');
  if (!supplier.ok) return supplier;
  const place = resolveIndianState(placeOfSupply, 'placeOfSupply');
  if (!place.ok) return place;
  return mapOk(supplier.value.gstCode === place.value.gstCode);
}

/** A combined line tax, split by the supply's geography: CGST+SGST halves or IGST. */
export function splitGst(input: {
  amount: Decimal;
  rate: Decimal;
  currency: string;
  supplierState: unknown;
  placeOfSupply: unknown;
}): MapResult<TaxComponent[]> {
  const intra = isIntraState(input.supplierState, input.placeOfSupply);
  if (!intra.ok) return intra;
  return mapOk(
    intra.value
      ? splitIntraState(input.amount, input.rate, input.currency)
      : interStateTax(input.amount, input.rate, input.currency),
  );
}
