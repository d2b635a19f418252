import type { MapContext } from '../../../src/connector/types.js';
import { documentExchangeRate, mapFail } from '../../../src/mapping/index.js';
import type { Steps } from '../../../src/mapping/steps.js';
import type { XeroLookups } from '../streams/lookups.js';

/**
 * Currency and exchange rate. Billing's `exchangeRate` is base units per ONE document-currency unit,
 * relative to ctx.baseCurrency. Xero's `CurrencyRate` is the other way round: document-currency units per
 * one unit of the ORGANISATION's base currency — an INR organisation's USD invoice carries 0.011976, as
 * Xero's UI writes "1 INR = 0.011976 USD" (field: https://developer.xero.com/documentation/api/accounting/invoices;
 * the direction and how it is still to be confirmed: README.md, "Exchange rate"). So it is inverted:
 * 1 / 0.011976 = 83.500334 INR per USD (the mapping core's 'foreign-per-base' direction, 10 significant
 * digits). The rules are src/mapping/currency.ts's:
 * - document in ctx.baseCurrency: no rate;
 * - the organisation's base (GET /Organisation) differs from ctx.baseCurrency, or is unknown: the rate is
 *   relative to the wrong base and nothing converts it → FX_UNDERIVABLE;
 * - missing/zero rate → FX_UNDERIVABLE, exactly 1 → FX_SUSPECT: never sent at 1:1.
 */

/** ISO code of the document currency, upper-case; MISSING_FIELD when Xero sent none. */
export function currencyOf(s: Steps, raw: string | null | undefined): string {
  const code = raw?.trim().toUpperCase();
  return code || s.fail(mapFail('MISSING_FIELD', 'CurrencyCode is missing', { field: 'CurrencyCode' }));
}

export function exchangeRateOf(
  s: Steps,
  currency: string,
  currencyRate: unknown,
  ctx: MapContext,
  lookups: XeroLookups,
): number | undefined {
  return documentExchangeRate(s, {
    documentCurrency: currency,
    organisationBase: lookups.baseCurrency,
    billingBase: ctx.baseCurrency,
    rate: currencyRate,
    direction: 'foreign-per-base',
    rateField: 'CurrencyRate',
    source: 'Xero',
  }).exchangeRate;
}
