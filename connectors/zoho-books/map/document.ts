import type { Adjustment, Discount, LineItem, Tax } from '../../../src/billing/schemas/index.js';
import {
  allocateMoney,
  checkOrganisationBase,
  buildDiscount,
  buildTax,
  checkInvoiceTotal,
  checkLinesSum,
  checkTaxSum,
  crossCheckExchangeRate,
  findIndianState,
  formatMoney,
  isIntraState,
  mapFail,
  minorUnit,
  Money,
  parseAmount,
  parseAmountOrZero,
  parseDiscountValue,
  parseOptionalAmount,
  percentOf,
  resolveExchangeRate,
  roundMoney,
  sumMoney,
  tryWireNumber,
  ZERO,
  type Decimal,
  type TaxComponent,
  type TaxKind,
} from '../../../src/mapping/index.js';
import type { MapContext } from '../../../src/connector/types.js';
import type { ZohoInvoice, ZohoLineItem, ZohoTaxLine } from '../schemas.js';
import { componentsOf, taxKindOf, type ZohoLookups, type ZohoTaxDefinition } from './lookups.js';
import type { Steps } from '../../../src/mapping/steps.js';

/**
 * The amounts of a Zoho invoice or credit note (they share these fields) → billing line items, tax,
 * discount and adjustments, checked against Zoho's own figures. How Zoho adds up (reference §1.4):
 *
 *   item_total      = quantity × rate − item discount            (line_items[], item-level discounts)
 *   sub_total       = Σ item_total
 *   entity discount = `discount_amount` (or `discount` as an amount, or a percentage of sub_total)
 *   tax             = per line and component: (item_total − the line's share of a before-tax entity
 *                     discount) × component %, rounded per line; taxes[] = Σ per component
 *   total           = sub_total − entity discount + tax_total + shipping_charge + adjustment + roundoff_value
 *
 * Zoho lines carry no tax amounts, so line taxes are recomputed from each line's tax_id (a group expands
 * to its CGST/SGST/IGST/cess components through /settings/taxes) and then reconciled to Zoho's per-component
 * `taxes[]`: each component's line amounts must come within one paisa per line of Zoho's figure, and the
 * remaining paise are spread over the lines (largest remainder), so line taxes add up exactly to what Zoho
 * printed. The document Tax therefore equals `taxes[]` and `tax_total` to the paisa.
 *
 * Billing line items: `subTotal` = Zoho's item_total (after the line's own discount, before tax), so
 * Σ subTotal = invoiceSubtotal; `discount` = the item discount already taken off; `tax` = the line's
 * reconciled tax; `total` = subTotal + tax. The entity-level discount, shipping, adjustment and round-off
 * are document-level and are not spread over lines.
 */
export type ZohoDocument = Pick<
  ZohoInvoice,
  | 'currency_code'
  | 'line_items'
  | 'sub_total'
  | 'taxes'
  | 'tax_total'
  | 'discount'
  | 'discount_type'
  | 'is_discount_before_tax'
  | 'discount_amount'
  | 'discount_percent'
  | 'shipping_charge'
  | 'shipping_charge_tax_id'
  | 'adjustment'
  | 'adjustment_description'
  | 'roundoff_value'
  | 'total'
  | 'is_inclusive_tax'
  | 'exchange_rate'
  | 'bcy_total'
  | 'place_of_supply'
>;

type LineItemDraft = Omit<LineItem, 'subTotal' | 'total' | 'quantity'> & { subTotal: number; total: number; quantity: number };
type AdjustmentDraft = Omit<Adjustment, 'isPostTax'> & { isPostTax: boolean };

export interface MappedAmounts {
  currency: string;
  subtotal: Decimal;
  total: Decimal;
  taxTotal: Decimal;
  /** Entity-level discount in money (0 when none). */
  discountAmount: Decimal;
  discount?: Discount;
  shipping: Decimal;
  adjustment: Decimal;
  roundoff: Decimal;
  tax: Tax;
  lineItems: LineItemDraft[];
  /** The tax kinds charged (for the GST geography check). */
  kinds: Set<TaxKind>;
}

interface ParsedLine {
  quantity: Decimal;
  rate: Decimal;
  itemTotal: Decimal;
  discountAmount: Decimal;
  discountPercent?: Decimal;
  taxId?: string;
}

/** One (line, tax component) amount. `line` −1 = the taxed shipping charge. */
interface TaxCell {
  line: number;
  tax: ZohoTaxDefinition;
  kind: TaxKind;
  rate: Decimal;
  amount: Decimal;
}

const nonEmpty = (v: string | null | undefined): string | undefined => (v && v.trim() !== '' ? v.trim() : undefined);

function within(a: Decimal, b: Decimal, currency: string, units: number): boolean {
  return a.minus(b).abs().lte(minorUnit(currency).times(units));
}

export function wire(s: Steps, amount: Decimal, currency: string, field: string): number {
  return s.take(tryWireNumber(amount, currency, field));
}

/** ISO code of the document currency, upper-case. */
export function currencyOf(s: Steps, raw: string): string {
  const code = raw.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) s.fail(mapFail('INVALID_FIELD', `currency_code ${JSON.stringify(raw)} is not an ISO 4217 code`, { field: 'currency_code' }));
  return code;
}

function parseLine(s: Steps, line: ZohoLineItem, i: number, currency: string): ParsedLine {
  const at = `line_items.${i}`;
  const quantity = line.quantity === null || line.quantity === undefined ? new Money(1) : s.take(parseAmount(line.quantity, `${at}.quantity`));
  const rate = s.take(parseAmountOrZero(line.rate, `${at}.rate`));
  const itemTotal = s.take(parseAmount(line.item_total, `${at}.item_total`));
  const entered = s.take(parseDiscountValue(line.discount, `${at}.discount`));
  const money = s.take(parseOptionalAmount(line.discount_amount, `${at}.discount_amount`));
  const gross = roundMoney(quantity.times(rate), currency);
  const discountAmount = roundMoney(
    money && !money.isZero() ? money : (entered.amount ?? (entered.percentage ? percentOf(gross, entered.percentage) : ZERO)),
    currency,
  );
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
  return { quantity, rate, itemTotal, discountAmount, discountPercent: entered.percentage, taxId: nonEmpty(line.tax_id) };
}

/**
 * Entity-level discount. Zoho computes a percentage on sub_total whether the discount applies before or
 * after tax, so the billing percentage is relative to the subtotal in both cases; `isPostTax` is
 * `!is_discount_before_tax`. The money (`discount_amount`) is authoritative.
 */
function entityDiscountOf(s: Steps, doc: ZohoDocument, subtotal: Decimal, currency: string): { amount: Decimal; discount?: Discount } {
  if (doc.discount_type?.trim().toLowerCase() !== 'entity_level') return { amount: ZERO };
  const entered = s.take(parseDiscountValue(doc.discount, 'discount'));
  const percentField = s.take(parseOptionalAmount(doc.discount_percent, 'discount_percent'));
  const percentage = entered.percentage ?? (percentField && !percentField.isZero() ? percentField : undefined);
  const money = s.take(parseOptionalAmount(doc.discount_amount, 'discount_amount'));
  const amount = roundMoney(money && !money.isZero() ? money : (entered.amount ?? (percentage ? percentOf(subtotal, percentage) : ZERO)), currency);
  const discount = s.take(buildDiscount({ amount, percentage, base: subtotal, isPostTax: doc.is_discount_before_tax === false, currency, field: 'discount' }));
  return discount ? { amount, discount } : { amount: ZERO };
}

function cellsFor(s: Steps, taxId: string, taxable: Decimal, line: number, lookups: ZohoLookups, currency: string, field: string): TaxCell[] {
  return s
    .take(componentsOf(taxId, lookups, field))
    .map((tax) => ({ tax, rate: new Money(tax.percentage) }))
    .filter(({ rate }) => !rate.isZero()) // nil-rated and exempt components carry no amount
    .map(({ tax, rate }) => ({ line, tax, kind: taxKindOf(tax), rate, amount: roundMoney(percentOf(taxable, rate), currency) }));
}

/** A taxes[] entry → the plain tax it reports: by tax_id, else by the org's own name (exact, or without a "(9%)" suffix). */
function resolveTaxLine(entry: ZohoTaxLine, lookups: ZohoLookups): ZohoTaxDefinition | undefined {
  const byId = entry.tax_id ? lookups.taxes[entry.tax_id] : undefined;
  if (byId && !byId.isGroup) return byId;
  const plain = Object.values(lookups.taxes).filter((t) => !t.isGroup);
  const name = entry.tax_name?.trim() ?? '';
  for (const candidate of [name, name.replace(/\s*\(\s*[\d.]+\s*%\s*\)\s*$/, '')]) {
    const hits = plain.filter((t) => t.name.trim() === candidate);
    if (candidate !== '' && hits.length === 1) return hits[0];
  }
  return undefined;
}

/**
 * Makes the recomputed cells add up exactly to Zoho's figures: per component when every taxes[] entry
 * can be matched to a tax of the organisation, else to tax_total as a whole. A gap of more than one
 * minor unit per cell is a real inconsistency.
 */
function reconcileTaxes(s: Steps, cells: TaxCell[], doc: ZohoDocument, taxTotal: Decimal, lookups: ZohoLookups, currency: string): void {
  const entries = (doc.taxes ?? []).map((entry, i) => ({ entry, amount: s.take(parseAmountOrZero(entry.tax_amount, `taxes.${i}.tax_amount`)) }));
  if (entries.length > 0) s.check(checkTaxSum({ components: entries.map((e) => e.amount), taxTotal, currency, toleranceMinorUnits: 0 }));
  const charged = entries.filter((e) => !e.amount.isZero());
  const resolved = charged.map((e) => ({ ...e, tax: resolveTaxLine(e.entry, lookups) }));
  const groups = new Map<string, { label: string; target: Decimal; cells: TaxCell[] }>();
  if (charged.length > 0 && resolved.every((r) => r.tax)) {
    for (const r of resolved) {
      const g = groups.get(r.tax!.id) ?? { label: `taxes[] ${r.tax!.name}`, target: ZERO, cells: [] };
      g.target = g.target.plus(r.amount);
      groups.set(r.tax!.id, g);
    }
    for (const cell of cells) {
      const g = groups.get(cell.tax.id) ?? { label: `taxes[] ${cell.tax.name}`, target: ZERO, cells: [] };
      g.cells.push(cell);
      groups.set(cell.tax.id, g);
    }
  } else {
    if (charged.length > 0) s.warn('taxes[] names do not match the tax settings; line taxes reconciled to tax_total as a whole');
    groups.set('*', { label: 'tax_total', target: taxTotal, cells });
  }
  for (const { label, target, cells: group } of groups.values()) {
    const sum = sumMoney(group.map((c) => c.amount));
    const diff = target.minus(sum);
    if (diff.isZero()) continue;
    if (!within(target, sum, currency, Math.max(1, group.length))) {
      const rates = [...new Set(group.map((c) => `${c.rate.toFixed()}%`))].join(', ') || 'no line';
      s.fail(
        mapFail(
          'AMOUNTS_INCONSISTENT',
          `${label} is ${formatMoney(target, currency)} but the lines' tax (${rates}) comes to ${formatMoney(sum, currency)} ${currency}`,
          { field: 'taxes' },
        ),
      );
    }
    if (group.every((c) => !c.amount.isNegative()) && sum.gt(0)) {
      const parts = allocateMoney(
        target,
        group.map((c) => c.amount),
        currency,
      );
      group.forEach((c, i) => (c.amount = parts[i]!));
    } else {
      const largest = group.reduce((a, b) => (b.amount.abs().gt(a.amount.abs()) ? b : a));
      largest.amount = largest.amount.plus(diff);
    }
    s.warn(`${label}: line taxes adjusted by ${formatMoney(diff, currency)} to match Zoho's figure`);
  }
}

function taxOf(s: Steps, cells: TaxCell[], currency: string, field: string, quiet = false): Tax {
  const parts: TaxComponent[] = cells.map((c) => ({ kind: c.kind, amount: c.amount, rate: c.rate, name: c.tax.name }));
  const result = buildTax(parts, currency, field);
  return quiet ? s.takeQuietly(result) : s.take(result);
}

export function mapAmounts(s: Steps, doc: ZohoDocument, lookups: ZohoLookups, currency: string): MappedAmounts {
  if (doc.is_inclusive_tax === true) {
    s.fail(
      mapFail('UNSUPPORTED', 'tax-inclusive documents (is_inclusive_tax) are not mapped yet: their rates and item totals include tax', {
        field: 'is_inclusive_tax',
      }),
    );
  }
  const lines = doc.line_items.map((line, i) => parseLine(s, line, i, currency));
  const subtotal = s.take(parseAmount(doc.sub_total, 'sub_total'));
  const taxTotal = s.take(parseAmountOrZero(doc.tax_total, 'tax_total'));
  const total = s.take(parseAmount(doc.total, 'total'));
  const shipping = s.take(parseAmountOrZero(doc.shipping_charge, 'shipping_charge'));
  const adjustment = s.take(parseAmountOrZero(doc.adjustment, 'adjustment'));
  const roundoff = s.take(parseAmountOrZero(doc.roundoff_value, 'roundoff_value'));
  s.check(checkLinesSum({ lineSubtotals: lines.map((l) => l.itemTotal), subtotal, currency }));

  const { amount: discountAmount, discount } = entityDiscountOf(s, doc, subtotal, currency);
  s.check(checkInvoiceTotal({ subtotal, discount: discountAmount, tax: taxTotal, adjustments: [shipping, adjustment], rounding: roundoff, total, currency }));

  // Each line's share of a before-tax entity discount lowers its taxable amount.
  let shares = lines.map(() => ZERO);
  if (!discountAmount.isZero() && doc.is_discount_before_tax !== false) {
    if (lines.some((l) => l.itemTotal.isNegative())) {
      s.fail(mapFail('UNSUPPORTED', 'a before-tax entity discount over negative lines cannot be apportioned', { field: 'discount' }));
    }
    shares = allocateMoney(
      discountAmount,
      lines.map((l) => l.itemTotal),
      currency,
    );
  }
  const cells: TaxCell[] = [];
  lines.forEach((l, i) => {
    if (l.taxId) cells.push(...cellsFor(s, l.taxId, l.itemTotal.minus(shares[i]!), i, lookups, currency, `line_items.${i}.tax_id`));
  });
  const shippingTaxId = nonEmpty(doc.shipping_charge_tax_id);
  if (shippingTaxId && !shipping.isZero()) cells.push(...cellsFor(s, shippingTaxId, shipping, -1, lookups, currency, 'shipping_charge_tax_id'));
  reconcileTaxes(s, cells, doc, taxTotal, lookups, currency);

  const lineItems = doc.line_items.map((raw, i): LineItemDraft => {
    const l = lines[i]!;
    const own = cells.filter((c) => c.line === i);
    const tax = own.length > 0 ? taxOf(s, own, currency, `lineItems.${i}.tax`, true) : undefined;
    const lineTax = sumMoney(own.map((c) => c.amount));
    const lineDiscount = l.discountAmount.isZero()
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
    const name = nonEmpty(raw.name) ?? nonEmpty(raw.description) ?? `Line ${i + 1}`;
    return {
      lineItemDetails: {
        name,
        taxRate: sumMoney(own.map((c) => c.rate)).toNumber(),
        // Unit prices may carry more decimals than the currency (Zoho allows 0.125): sent as received.
        pricePerItem: l.rate.toNumber(),
        ...(nonEmpty(raw.hsn_or_sac) ? { hsnOrSacCode: nonEmpty(raw.hsn_or_sac) } : {}),
        ...(nonEmpty(raw.description) ? { description: nonEmpty(raw.description) } : {}),
        ...(nonEmpty(raw.item_id) ? { erpId: nonEmpty(raw.item_id) } : {}),
        ...(nonEmpty(raw.line_item_id) ? { lineItemId: nonEmpty(raw.line_item_id) } : {}),
      },
      subTotal: wire(s, l.itemTotal, currency, `lineItems.${i}.subTotal`),
      total: wire(s, l.itemTotal.plus(lineTax), currency, `lineItems.${i}.total`),
      ...(tax ? { tax } : {}),
      ...(lineDiscount ? { discount: lineDiscount } : {}),
      quantity: l.quantity.toNumber(),
    };
  });

  return {
    currency,
    subtotal,
    total,
    taxTotal,
    discountAmount,
    ...(discount ? { discount } : {}),
    shipping,
    adjustment,
    roundoff,
    tax: taxOf(s, cells, currency, 'tax'),
    lineItems,
    kinds: new Set(cells.map((c) => c.kind)),
  };
}

/**
 * Shipping, the manual adjustment and Zoho's round-off as billing adjustments (post-tax), so that
 * invoiceSubtotal − discount + tax + Σ adjustments = invoiceTotal exactly. Round-off is sent as an
 * adjustment named "Round off" rather than as invoiceRoundingConfig: a rounding *rule* would let billing
 * recompute its own rounding, while Zoho already decided the amount.
 */
export function adjustmentsOf(s: Steps, a: MappedAmounts, description: string | null | undefined): AdjustmentDraft[] {
  const out: AdjustmentDraft[] = [];
  const add = (amount: Decimal, name: string, field: string) => {
    if (!amount.isZero()) out.push({ name, amount: wire(s, amount, a.currency, field), isPostTax: true });
  };
  add(a.shipping, 'Shipping charge', 'shipping_charge');
  add(a.adjustment, nonEmpty(description) ?? 'Adjustment', 'adjustment');
  add(a.roundoff, 'Round off', 'roundoff_value');
  return out;
}

/**
 * The billing exchange rate (design §3, A29). Zoho's exchange_rate is already base-per-foreign, but
 * relative to the *Zoho organisation's* base currency. When that is not the billing company's base, the
 * rate is for another currency pair: a document in the billing base currency needs none, anything else
 * cannot be converted and is FX_UNDERIVABLE (never sent at 1:1 or at the wrong pair's rate).
 * The rate is cross-checked against Zoho's own bcy_total when present (FX_SUSPECT when they disagree).
 */
export function exchangeRateOf(s: Steps, doc: ZohoDocument, a: MappedAmounts, ctx: MapContext, lookups: ZohoLookups): number | undefined {
  const base = ctx.baseCurrency.trim().toUpperCase();
  s.check(
    checkOrganisationBase({
      documentCurrency: a.currency,
      organisationBase: lookups.organization.baseCurrency,
      billingBase: base,
      rateField: 'exchange_rate',
      source: 'Zoho Books',
    }),
  );
  const baseTotal = s.take(parseOptionalAmount(doc.bcy_total, 'bcy_total'));
  const resolved = resolveExchangeRate({
    invoiceCurrency: a.currency,
    baseCurrency: base,
    rate: doc.exchange_rate,
    direction: 'base-per-foreign',
    fromTotals: baseTotal ? { total: a.total, baseTotal } : undefined,
    field: 'exchange_rate',
  });
  if (!resolved.ok) s.fail(resolved);
  if (resolved.warnings) resolved.warnings.forEach((w) => s.warn(w));
  if (resolved.exchangeRate !== undefined && baseTotal) {
    s.take(crossCheckExchangeRate({ exchangeRate: resolved.exchangeRate, total: a.total, baseTotal, baseCurrency: base }));
  }
  return resolved.exchangeRate;
}

/**
 * place_of_supply ("KA") → placeOfSupply (the GST portal's two-letter code) and supplyStateCode (the GST
 * numeric code "29"). Absent for exports. A present but unknown code is INVALID_FIELD. When the
 * organisation's state is known, a warning flags CGST/SGST on an inter-state supply or IGST on an
 * intra-state one (the tax kinds themselves come from Zoho's tax settings, never from geography).
 */
export function supplyOf(s: Steps, doc: ZohoDocument, a: MappedAmounts, lookups: ZohoLookups): { placeOfSupply?: string; supplyStateCode?: string } {
  const raw = nonEmpty(doc.place_of_supply);
  if (!raw) return {};
  const state = findIndianState(raw);
  if (!state) s.fail(mapFail('INVALID_FIELD', `place_of_supply ${JSON.stringify(raw)} is not an Indian state or UT code`, { field: 'place_of_supply' }));
  const orgState = lookups.organization.stateCode;
  if (orgState && findIndianState(orgState)) {
    const intra = isIntraState(orgState, state.code);
    if (intra.ok && intra.value && a.kinds.has('igst')) s.warn(`IGST charged on an intra-state supply (${state.code})`);
    if (intra.ok && !intra.value && (a.kinds.has('cgst') || a.kinds.has('sgst'))) s.warn(`CGST/SGST charged on an inter-state supply (${state.code})`);
  }
  return { placeOfSupply: state.code, supplyStateCode: state.gstCode };
}
