import { Decimal as DecimalJs } from 'decimal.js';
import { Money } from '../kit/minor-units.js';
import type { TenantProfile } from './tenants.js';

/**
 * What Xero puts in `CurrencyRate`. Xero's documentation does not state the direction; the likely reading
 * is "invoice-currency units per one base unit" (Xero's UI shows "1 AUD = 0.65 USD"), which is the
 * default here. 'base-per-foreign' serves the other reading, so a connector's assumption can be tested
 * against both. Six decimals, as Xero stores it; 1.0 for the base currency.
 */
export type CurrencyRateConvention = 'foreign-per-base' | 'base-per-foreign';

export function currencyRateFor(tenant: TenantProfile, currency: string, convention: CurrencyRateConvention): number {
  if (currency === tenant.baseCurrency) return 1;
  const row = tenant.foreignCurrencies.find(([c]) => c === currency);
  if (!row) throw new Error(`${tenant.tenantName} does not invoice in ${currency}`);
  const basePerForeign = new Money(row[1]);
  const rate = convention === 'base-per-foreign' ? basePerForeign : new Money(1).div(basePerForeign);
  return rate.toDecimalPlaces(6, DecimalJs.ROUND_HALF_UP).toNumber();
}
