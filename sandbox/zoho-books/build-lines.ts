import type { GeneratorContext } from './generator-context.js';
import type { ItemDefinition } from './item-catalog.js';
import type { SeededRandom } from '../kit/seeded-random.js';
import type { CurrencyCode, LineRecord } from './store-records.js';

/** Rough rupees per unit of foreign currency, to price items for overseas customers. */
const PRICE_DIVISOR: Record<CurrencyCode, number> = { INR: 1, USD: 85, EUR: 92 };

export interface LinePlan {
  currency: CurrencyCode;
  /** Customer in the org's state: CGST+SGST group; otherwise IGST. */
  intraState: boolean;
  /** Export under LUT: lines carry no tax. */
  zeroRated: boolean;
  count: number;
  servicesOnly: boolean;
}

function quantityHundredths(random: SeededRandom, item: ItemDefinition): number {
  if (item.fractional) return random.chance(0.25) ? random.int(1, 19) * 100 + 50 : random.int(1, 40) * 100;
  if (item.product_type === 'services') return random.int(1, 3) * 100;
  return random.weighted([
    [1, 3],
    [2, 5],
    [3, 2],
  ] as const) === 1
    ? random.int(1, 10) * 100
    : random.int(5, 200) * 100;
}

function rateMinor(random: SeededRandom, item: ItemDefinition, currency: CurrencyCode, qtyHundredths: number): number {
  const rupees = random.int(item.minRupees, item.maxRupees);
  let rate =
    currency === 'INR'
      ? rupees * 100 + (random.chance(0.3) ? random.int(1, 99) : 0)
      : Math.max(
          100,
          Math.round((rupees * 100) / PRICE_DIVISOR[currency] / 100) * 100 +
            (random.chance(0.4) ? random.int(1, 99) : 0),
        );
  // Half units (2.5 hrs) need an even rate for quantity × rate to be a whole paisa.
  if (qtyHundredths % 100 !== 0 && rate % 2 !== 0) rate += 1;
  return rate;
}

/** Line items priced in the document currency, taxed by place of supply. */
export function buildLines(ctx: GeneratorContext, random: SeededRandom, plan: LinePlan): LineRecord[] {
  const pool = plan.servicesOnly ? ctx.items.filter((i) => i.product_type === 'services') : ctx.items;
  const lines: LineRecord[] = [];
  for (let n = 0; n < plan.count; n++) {
    const item = random.pick(pool);
    const qty = quantityHundredths(random, item);
    lines.push({
      line_item_id: ctx.transactionIds.take(),
      item_id: item.item_id,
      name: item.name,
      description: random.pick(item.descriptions),
      item_order: n + 1,
      hsn_or_sac: item.hsn_or_sac,
      product_type: item.product_type,
      unit: item.unit,
      quantityHundredths: qty,
      rateMinor: rateMinor(random, item, plan.currency, qty),
      discount: null,
      tax_id: plan.zeroRated ? '' : ctx.taxes.forSupply(item.slab, plan.intraState).tax_id,
    });
  }
  return lines;
}
