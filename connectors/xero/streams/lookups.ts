import type { z } from 'zod';
import type { ReadContext } from '../../../src/connector/types.js';
import type { XeroLookups } from '../map/xero-lookups.js';
import { XeroOrganisationResponse, XeroTaxRatesResponse } from '../schemas.js';

/**
 * The organisation's base currency and tax rates, once per read (2 calls).
 * https://developer.xero.com/documentation/api/accounting/organisation
 * https://developer.xero.com/documentation/api/accounting/taxrates
 */
export async function fetchXeroLookups(ctx: ReadContext): Promise<XeroLookups> {
  // GET /Organisation: BaseCurrency decides whether CurrencyRate is usable for our billing base.
  const org = await ctx.http.request({ path: 'Organisation', endpoint: 'GET /Organisation', schema: XeroOrganisationResponse, signal: ctx.signal });
  // GET /TaxRates: resolves LineItem.TaxType to a name, a rate and its components.
  const rates = await ctx.http.request({ path: 'TaxRates', endpoint: 'GET /TaxRates', schema: XeroTaxRatesResponse, signal: ctx.signal });
  return lookupsFrom(org, rates);
}

/** The two responses → the mapper's lookups (pure; rates kept as decimal strings). */
export function lookupsFrom(org: z.infer<typeof XeroOrganisationResponse>, rates: z.infer<typeof XeroTaxRatesResponse>): XeroLookups {
  const first = org.Organisations[0]!;
  const taxRates: XeroLookups['taxRates'] = {};
  for (const r of rates.TaxRates) {
    const components = (r.TaxComponents ?? []).map((c) => ({ name: c.Name, rate: String(c.Rate), compound: c.IsCompound === true }));
    taxRates[r.TaxType] = { name: r.Name, rate: String(r.EffectiveRate ?? r.DisplayTaxRate ?? 0), components };
  }
  return { baseCurrency: first.BaseCurrency.toUpperCase(), ...(first.Name ? { organisationName: first.Name } : {}), taxRates };
}
