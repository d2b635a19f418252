import { allocate, mulDivRounded, percentOf } from '../kit/minor-units.js';
import type { Discount, DocumentTerms } from './store-records.js';
import type { TaxCatalog } from './tax-catalog.js';
import type { ComponentAmount, DocumentAmounts, LineAmounts } from './document-amounts.js';

export type { ComponentAmount, DocumentAmounts, LineAmounts } from './document-amounts.js';

function discountOf(base: number, discount: Discount | null): number {
  if (!discount) return 0;
  const amount = discount.kind === 'percent' ? percentOf(base, discount.basisPoints) : discount.minor;
  return Math.min(Math.max(amount, 0), base);
}

/**
 * The one place invoice and credit-note amounts are computed, in integer minor units:
 *
 *   line gross      = round(quantity × rate)                (generator keeps it exact)
 *   line discount   = percent of gross, or a fixed amount    (item_level only)
 *   item_total      = gross − line discount
 *   sub_total       = Σ item_total
 *   entity discount = percent of sub_total, or a fixed amount (entity_level only)
 *   taxable (line)  = item_total − its share of the entity discount when is_discount_before_tax,
 *                     else item_total (the discount then comes off the taxed total)
 *   tax (line, component) = round(taxable × component %)   (each component rounded per line)
 *   taxes[]         = Σ per component;  tax_total = Σ taxes[]
 *   total           = sub_total − entity discount + tax_total + shipping_charge + adjustment
 */
export function computeDocumentAmounts(doc: DocumentTerms, taxes: TaxCatalog): DocumentAmounts {
  const itemLevel = doc.discount_type === 'item_level';
  const partial = doc.lines.map((line) => {
    const grossMinor = mulDivRounded(line.quantityHundredths, line.rateMinor, 100);
    const discountMinor = itemLevel ? discountOf(grossMinor, line.discount) : 0;
    return { grossMinor, discountMinor, itemTotalMinor: grossMinor - discountMinor };
  });
  const subTotalMinor = partial.reduce((s, l) => s + l.itemTotalMinor, 0);
  const entityDiscountMinor = itemLevel ? 0 : discountOf(subTotalMinor, doc.entityDiscount);
  const shares =
    !itemLevel && doc.is_discount_before_tax
      ? allocate(
          entityDiscountMinor,
          partial.map((l) => l.itemTotalMinor),
        )
      : partial.map(() => 0);

  const totals = new Map<string, ComponentAmount>();
  const lines: LineAmounts[] = partial.map((l, i) => {
    const line = doc.lines[i];
    const entityDiscountShareMinor = shares[i] ?? 0;
    const taxableMinor = l.itemTotalMinor - entityDiscountShareMinor;
    const lineTaxes = taxes.componentsOf(line?.tax_id ?? '').map((c) => ({
      tax_id: c.tax_id,
      tax_name: c.tax_name,
      amountMinor: percentOf(taxableMinor, c.basisPoints),
    }));
    for (const t of lineTaxes) {
      const sum = totals.get(t.tax_id) ?? { tax_id: t.tax_id, tax_name: t.tax_name, amountMinor: 0 };
      sum.amountMinor += t.amountMinor;
      totals.set(t.tax_id, sum);
    }
    return { ...l, entityDiscountShareMinor, taxableMinor, taxes: lineTaxes };
  });
  const componentTotals = [...totals.values()];
  const taxTotalMinor = componentTotals.reduce((s, t) => s + t.amountMinor, 0);
  return {
    lines,
    subTotalMinor,
    lineDiscountMinor: partial.reduce((s, l) => s + l.discountMinor, 0),
    entityDiscountMinor,
    taxes: componentTotals,
    taxTotalMinor,
    shippingMinor: doc.shippingMinor,
    adjustmentMinor: doc.adjustmentMinor,
    totalMinor: subTotalMinor - entityDiscountMinor + taxTotalMinor + doc.shippingMinor + doc.adjustmentMinor,
  };
}
