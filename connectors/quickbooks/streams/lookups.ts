import type { z } from 'zod';
import type { ReadContext } from '../../../src/connector/types.js';
import { buildLookups, type QboLookups } from '../map/lookups.js';
import { QboCompanyInfo, QboPreferences, QboTaxCode, QboTaxRate } from '../schemas.js';
import { MAX_RESULTS, selectStatement } from './query.js';
import { runQuery } from './run-query.js';

/**
 * The mappers' company lookups, fetched once per read (map/lookups.ts says what each is for):
 *   SELECT * FROM TaxRate / TaxCode WHERE Active IN (true, false)   (old documents use retired rates)
 *   SELECT * FROM CompanyInfo, SELECT * FROM Preferences             (state, country, home currency)
 * https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/data-queries [Q4]; entity fields: github intuit/QuickBooks-V3-Java-SDK ipp-v3-java-data/src/main/xsd/Finance.xsd [Q1]
 */
export async function fetchLookups(ctx: Pick<ReadContext, 'http' | 'signal'>): Promise<QboLookups> {
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
async function readAll<T extends z.ZodTypeAny>(ctx: Pick<ReadContext, 'http' | 'signal'>, entity: string, item: T): Promise<z.output<T>[]> {
  const out: z.output<T>[] = [];
  for (let start = 1; ; start += MAX_RESULTS) {
    const statement = selectStatement({ entity, where: ['Active IN (true, false)'], startPosition: start, maxResults: MAX_RESULTS });
    // https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/data-queries
    const { rows } = await runQuery(ctx, entity, statement, item);
    out.push(...rows);
    if (rows.length < MAX_RESULTS) return out;
  }
}
