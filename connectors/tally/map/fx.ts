import type { MapContext } from '../../../src/connector/types.js';
import { documentExchangeRate } from '../../../src/mapping/index.js';
import type { Steps } from '../../../src/mapping/steps.js';

/**
 * Currency. A Tally company keeps its books in its base currency; the connector maps Indian companies,
 * whose base is INR, and vouchers in it. A voucher in a foreign currency writes its amounts as
 * "$1,200.00 @ ₹ 83.25/$ = ₹ 99,900.00" (foreign amount @ rate = base amount): map/tally-values.ts
 * refuses those as UNSUPPORTED until they are mapped, so every mapped voucher is in INR.
 */
export const TALLY_BASE_CURRENCY = 'INR';

export function currencyOf(): string {
  return TALLY_BASE_CURRENCY;
}

/**
 * Billing's exchangeRate (base units per one document unit): none for an INR document in an INR billing
 * company; an INR document for a billing company in another base has no rate Tally could give
 * (FX_UNDERIVABLE, src/mapping/currency.ts), never 1:1.
 */
export function exchangeRateOf(s: Steps, currency: string, ctx: MapContext): number | undefined {
  return documentExchangeRate(s, {
    documentCurrency: currency,
    organisationBase: TALLY_BASE_CURRENCY,
    billingBase: ctx.baseCurrency,
    rate: undefined,
    direction: 'base-per-foreign',
    rateField: 'AMOUNT',
    source: 'Tally',
  }).exchangeRate;
}
