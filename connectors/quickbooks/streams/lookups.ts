import { z } from 'zod';
import type { Settings } from '../settings.js';
import { cachedLookups } from '../../../src/connector/lookups-cache.js';
import { requireLookups } from '../../../src/connector/read-lookups.js';
import type { ReadContext } from '../../../src/connector/types.js';
import { QboCompanyInfo, QboPreferences, QboTaxCode, QboTaxRate } from '../schemas.js';
import { MAX_RESULTS, runQuery, selectStatement } from './query.js';

/**
 * What the QuickBooks mappers need besides the record, fetched once per read by every stream's
 * `lookups()` and handed over in MapContext.lookups:
 * - `homeCurrency` from Preferences.CurrencyPrefs.HomeCurrency: QBO's ExchangeRate is relative to it, so
 *   it must equal the billing base currency for the rate to be usable (map/fx.ts);
 * - the company's state and country from CompanyInfo.CompanyAddr (the supplier side of intra/inter-state);
 * - TaxRate names and rates (TaxLine.TaxRateRef → "CGST 9%") and TaxCode rate lists (line TaxCodeRef →
 *   which TaxRates apply to the line).
 * Plain JSON so it can be logged, cached and built in tests.
 */
export const QboLookups = z.object({
  homeCurrency: z.string().optional(),
  multiCurrency: z.boolean().optional(),
  companyState: z.string().optional(),
  companyCountry: z.string().optional(),
  taxRates: z
    .record(z.string(), z.object({ name: z.string(), rate: z.string().optional(), agency: z.string().optional() }))
    .default({}),
  taxCodes: z.record(z.string(), z.object({ name: z.string(), rateIds: z.array(z.string()) })).default({}),
});
export type QboLookups = z.infer<typeof QboLookups>;

/**
 * MapContext.lookups checked as QboLookups, inside a mapper's `mapping()` body: missing or malformed
 * quarantines the record as MISSING_FIELD with the reason (src/connector/read-lookups.ts). A field the
 * company lacks (no home currency) is absent, and the mapper says what that blocks.
 */
export function readLookups(raw: unknown): QboLookups {
  return requireLookups(QboLookups, raw, 'QuickBooks', 'company, preferences, tax rates and codes');
}

/** Builds the lookups from the raw query results (pure; fetchLookups does the I/O). */
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
    const rateIds = (c.SalesTaxRateList?.TaxRateDetail ?? []).flatMap((d) =>
      d.TaxRateRef ? [d.TaxRateRef.value] : [],
    );
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

/**
 * The lookups of one read:
 *   SELECT * FROM TaxRate / TaxCode WHERE Active IN (true, false)   (old documents use retired rates)
 *   SELECT * FROM CompanyInfo, SELECT * FROM Preferences             (state, country, home currency)
 */
export function fetchLookups(
  ctx: Pick<ReadContext<Settings>, 'http' | 'signal' | 'connectionId' | 'settings'>,
): Promise<QboLookups> {
  // Cached per connection for settings.lookupsCacheSeconds (src/connector/lookups-cache.ts).
  return cachedLookups(ctx, `qbo-lookups|${ctx.settings.realmId}`, ctx.settings.lookupsCacheSeconds, () =>
    readFromQuickBooks(ctx),
  );
}

async function readFromQuickBooks(ctx: Pick<ReadContext, 'http' | 'signal'>): Promise<QboLookups> {
  // https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/data-queries
  const [taxRates, taxCodes, companyInfo, preferences] = await Promise.all([
    readAll(ctx, 'TaxRate', QboTaxRate),
    readAll(ctx, 'TaxCode', QboTaxCode),
    runQuery(ctx, 'CompanyInfo', selectStatement({ entity: 'CompanyInfo' }), QboCompanyInfo),
    runQuery(ctx, 'Preferences', selectStatement({ entity: 'Preferences' }), QboPreferences),
  ]);
  return buildLookups({ taxRates, taxCodes, companyInfo: companyInfo.rows[0], preferences: preferences.rows[0] });
}

/** Small reference lists: plain STARTPOSITION paging (they do not change during a read). */
async function readAll<T extends z.ZodTypeAny>(
  ctx: Pick<ReadContext, 'http' | 'signal'>,
  entity: string,
  item: T,
): Promise<z.output<T>[]> {
  const out: z.output<T>[] = [];
  for (let start = 1; ; start += MAX_RESULTS) {
    const statement = selectStatement({
      entity,
      where: ['Active IN (true, false)'],
      startPosition: start,
      maxResults: MAX_RESULTS,
    });
    // https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/data-queries
    const { rows } = await runQuery(ctx, entity, statement, item);
    out.push(...rows);
    if (rows.length < MAX_RESULTS) return out;
  }
}
