import { z } from 'zod';
import type { QboCompanyInfo, QboPreferences, QboTaxCode, QboTaxRate } from '../schemas.js';

/**
 * What the mappers need from the company, fetched once per read (streams/lookups.ts):
 * - `homeCurrency` from Preferences.CurrencyPrefs.HomeCurrency: QBO's ExchangeRate is relative to it, so it
 *   must equal the billing base currency for the rate to be usable (design §3 exchange-rate rule);
 * - the company's state and country from CompanyInfo.CompanyAddr (the supplier side of intra/inter-state);
 * - TaxRate names and rates (TaxLine.TaxRateRef → "CGST 9%") and TaxCode rate lists (line TaxCodeRef →
 *   which TaxRates apply to the line) [Q1][Q2].
 * Plain JSON so it can be logged, cached and built in tests.
 */
export const QboLookups = z.object({
  homeCurrency: z.string().optional(),
  multiCurrency: z.boolean().optional(),
  companyState: z.string().optional(),
  companyCountry: z.string().optional(),
  taxRates: z.record(z.string(), z.object({ name: z.string(), rate: z.string().optional(), agency: z.string().optional() })).default({}),
  taxCodes: z.record(z.string(), z.object({ name: z.string(), rateIds: z.array(z.string()) })).default({}),
});
export type QboLookups = z.infer<typeof QboLookups>;

/** MapContext.lookups → QboLookups; anything unreadable counts as "not looked up" (empty). */
export function readLookups(raw: Record<string, unknown>): QboLookups {
  const parsed = QboLookups.safeParse(raw);
  return parsed.success ? parsed.data : QboLookups.parse({});
}

/** Builds the lookups from the raw query results (pure; the stream does the I/O). */
export function buildLookups(input: {
  taxRates?: readonly QboTaxRate[];
  taxCodes?: readonly QboTaxCode[];
  companyInfo?: QboCompanyInfo;
  preferences?: QboPreferences;
}): QboLookups {
  const taxRates: QboLookups['taxRates'] = {};
  for (const r of input.taxRates ?? []) {
    const rate = r.RateValue === undefined ? undefined : String(r.RateValue);
    taxRates[r.Id] = {
      name: r.Name ?? r.Description ?? `TaxRate ${r.Id}`,
      ...(rate === undefined ? {} : { rate }),
      ...(r.AgencyRef?.name ? { agency: r.AgencyRef.name } : {}),
    };
  }
  const taxCodes: QboLookups['taxCodes'] = {};
  for (const c of input.taxCodes ?? []) {
    const rateIds = (c.SalesTaxRateList?.TaxRateDetail ?? []).flatMap((d) => (d.TaxRateRef ? [d.TaxRateRef.value] : []));
    taxCodes[c.Id] = { name: c.Name ?? `TaxCode ${c.Id}`, rateIds };
  }
  const addr = input.companyInfo?.CompanyAddr ?? input.companyInfo?.LegalAddr;
  const prefs = input.preferences?.CurrencyPrefs;
  const out: QboLookups = { taxRates, taxCodes };
  if (prefs?.HomeCurrency?.value) out.homeCurrency = prefs.HomeCurrency.value.trim().toUpperCase();
  if (prefs?.MultiCurrencyEnabled !== undefined) out.multiCurrency = prefs.MultiCurrencyEnabled;
  if (addr?.CountrySubDivisionCode) out.companyState = addr.CountrySubDivisionCode;
  const country = input.companyInfo?.Country ?? addr?.Country;
  if (country) out.companyCountry = country;
  return out;
}
