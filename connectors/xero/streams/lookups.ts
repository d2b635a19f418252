import { z } from 'zod';
import { cachedLookups } from '../../../src/connector/lookups-cache.js';
import { requireLookups } from '../../../src/connector/read-lookups.js';
import type { ReadContext } from '../../../src/connector/types.js';
import { XeroOrganisationResponse, XeroTaxRatesResponse } from '../schemas.js';
import type { Settings } from '../settings.js';

/**
 * What the Xero mappers need besides the record, fetched by every stream's `lookups()` (2 calls,
 * cached per connection) and handed over in MapContext.lookups as plain JSON:
 * - `baseCurrency`: GET /Organisation `BaseCurrency` — Xero's CurrencyRate is relative to it
 *   (https://developer.xero.com/documentation/api/accounting/organisation); with `countryCode`
 *   (`CountryCode`, ISO alpha-2) also the customer's currency and country when a contact has none;
 * - `taxRates`: GET /TaxRates by TaxType: name, effective rate and components (to split CGST/SGST)
 *   (https://developer.xero.com/documentation/api/accounting/taxrates).
 * Rates travel as strings so the decimals stay exact.
 */
export const XeroLookups = z.object({
  baseCurrency: z.string().optional(),
  countryCode: z.string().optional(),
  organisationName: z.string().optional(),
  taxRates: z
    .record(
      z.string(),
      z.object({
        name: z.string(),
        rate: z.string(),
        components: z.array(z.object({ name: z.string(), rate: z.string(), compound: z.boolean() })),
      }),
    )
    .default({}),
});
export type XeroLookups = z.infer<typeof XeroLookups>;
export type XeroTaxRateInfo = XeroLookups['taxRates'][string];

/**
 * MapContext.lookups checked as XeroLookups, inside a mapper's `mapping()` body: missing or malformed
 * quarantines the record as MISSING_FIELD with the reason (src/connector/read-lookups.ts). A field the
 * organisation lacks is absent, and the mapper says what that blocks (an unknown organisation base is
 * FX_UNDERIVABLE for a foreign document).
 */
export function readLookups(lookups: unknown): XeroLookups {
  return requireLookups(XeroLookups, lookups, 'Xero', 'organisation, tax rates');
}

/**
 * Read once per connection and cached for settings.lookupsCacheSeconds (src/connector/lookups-cache.ts):
 * at 60 calls a rolling minute, two lookup calls in every job would cost as much as the data.
 */
export function fetchLookups(ctx: ReadContext<Settings>): Promise<XeroLookups> {
  return cachedLookups(ctx, `xero-lookups|${ctx.settings.tenantId}`, ctx.settings.lookupsCacheSeconds, () =>
    readFromXero(ctx),
  );
}

async function readFromXero(ctx: ReadContext<Settings>): Promise<XeroLookups> {
  // GET /Organisation: BaseCurrency decides whether CurrencyRate is usable for our billing base.
  // https://developer.xero.com/documentation/api/accounting/organisation
  const org = await ctx.http.request({
    path: 'Organisation',
    endpoint: 'GET /Organisation',
    schema: XeroOrganisationResponse,
    signal: ctx.signal,
  });
  // GET /TaxRates: resolves LineItem.TaxType to a name, a rate and its components.
  // https://developer.xero.com/documentation/api/accounting/taxrates
  const rates = await ctx.http.request({
    path: 'TaxRates',
    endpoint: 'GET /TaxRates',
    schema: XeroTaxRatesResponse,
    signal: ctx.signal,
  });
  return lookupsFrom(org, rates);
}

/** The two responses → the mapper's lookups (pure; rates kept as decimal strings). */
export function lookupsFrom(
  org: z.infer<typeof XeroOrganisationResponse>,
  rates: z.infer<typeof XeroTaxRatesResponse>,
): XeroLookups {
  const first = org.Organisations[0]!;
  const taxRates: XeroLookups['taxRates'] = {};
  for (const r of rates.TaxRates) {
    const components = (r.TaxComponents ?? []).map((c) => ({
      name: c.Name,
      rate: String(c.Rate),
      compound: c.IsCompound === true,
    }));
    taxRates[r.TaxType] = { name: r.Name, rate: String(r.EffectiveRate ?? r.DisplayTaxRate ?? 0), components };
  }
  const countryCode = first.CountryCode?.trim().toUpperCase();
  return {
    baseCurrency: first.BaseCurrency.toUpperCase(),
    ...(countryCode ? { countryCode } : {}),
    ...(first.Name ? { organisationName: first.Name } : {}),
    taxRates,
  };
}
