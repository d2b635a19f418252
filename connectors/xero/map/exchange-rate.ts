import type { MapContext } from '../../../src/connector/types.js';
import { checkOrganisationBase, resolveExchangeRate, type ExchangeRateResult } from '../../../src/mapping/index.js';
import type { XeroLookups } from './xero-lookups.js';

/**
 * Billing `exchangeRate` (base units per ONE invoice-currency unit, relative to ctx.baseCurrency) from
 * Xero's `CurrencyRate` (design §3, reference §3.5, trap 9):
 * - CurrencyRate is "invoice-currency units per one unit of the ORGANISATION's base" (Xero's UI writes
 *   "1 INR = 0.011976 USD"), so it is inverted: 1 / 0.011976 = 83.500334 INR per USD (the mapping core's
 *   'foreign-per-base' direction, 10 significant digits);
 * - invoice in ctx.baseCurrency: no rate;
 * - the organisation's base (GET /Organisation) differs from ctx.baseCurrency: the rate is relative to the
 *   wrong base and nothing converts it → FX_UNDERIVABLE; likewise when the organisation is unknown;
 * - missing/zero rate → FX_UNDERIVABLE, exactly 1 → FX_SUSPECT: never sent at 1:1.
 */
export function xeroExchangeRate(currency: string, currencyRate: unknown, ctx: MapContext, lookups: XeroLookups): ExchangeRateResult {
  const base = ctx.baseCurrency.trim().toUpperCase();
  const organisation = checkOrganisationBase({
    documentCurrency: currency,
    organisationBase: lookups.baseCurrency,
    billingBase: base,
    rateField: 'CurrencyRate',
    source: 'Xero',
  });
  if (organisation) return organisation;
  return resolveExchangeRate({ invoiceCurrency: currency, baseCurrency: base, rate: currencyRate, direction: 'foreign-per-base', field: 'CurrencyRate' });
}
