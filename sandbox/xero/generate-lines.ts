import type { LineSpec } from './document-amounts.js';
import { ITEMS } from './item-catalog.js';
import type { SeededRandom } from '../kit/seeded-random.js';
import type { TenantProfile } from './tenants.js';
import type { LineAmountTypes } from './xero-records.js';

/**
 * Line items for a generated document: catalogue items, whole or fractional quantities, prices with
 * paise/cents, about a quarter discounted (DiscountRate % or DiscountAmount), domestic tax types by weight
 * and the export tax type on foreign-currency documents.
 */
export function generateLineSpecs(
  rng: SeededRandom,
  tenant: TenantProfile,
  foreign: boolean,
  count = rng.int(1, 4),
): LineSpec[] {
  return Array.from({ length: count }, () => {
    const item = rng.pick(ITEMS);
    const quantity = item.fractional ? rng.pick(['0.5', '1', '2.5', '4', '7.75', '8', '12']) : String(rng.int(1, 10));
    const unit = `${rng.int(item.min, item.max)}.${rng.pick(['00', '00', '50', '99', '25', '75', '05'])}`;
    const spec: LineSpec = {
      LineItemID: rng.uuid(),
      Description: item.description,
      Quantity: quantity,
      UnitAmount: unit,
      ItemCode: item.code,
      AccountCode: '200',
      TaxType: foreign ? tenant.exportTaxType : rng.weighted(tenant.domesticTaxTypes),
    };
    const roll = rng.next();
    if (roll < 0.18) spec.DiscountRate = rng.pick(['5', '10', '12.5', '15', '7.5']);
    else if (roll < 0.26) spec.DiscountAmount = rng.pick(['10.00', '25.50', '5.05']);
    return spec;
  });
}

export function pickLineAmountTypes(rng: SeededRandom, foreign: boolean): LineAmountTypes {
  if (foreign)
    return rng.weighted([
      ['Exclusive', 3],
      ['NoTax', 1],
    ] as const);
  return rng.weighted([
    ['Exclusive', 55],
    ['Inclusive', 30],
    ['NoTax', 15],
  ] as const);
}
