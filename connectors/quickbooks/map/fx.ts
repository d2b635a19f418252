import {
  checkOrganisationBase,
  crossCheckExchangeRate,
  type Decimal,
  mapFail,
  type MapFailure,
  mapOk,
  type MapResult,
  parseOptionalAmount,
  resolveExchangeRate,
} from '../../../src/mapping/index.js';
import type { QboRef } from '../schemas.js';
import type { QboLookups } from './lookups.js';

/**
 * Currency and exchange rate of a QBO document (design §3, reference trap 9):
 * - currency = `CurrencyRef.value`, else the company's home currency (single-currency companies);
 * - same as the billing base (ctx.baseCurrency): no rate;
 * - foreign: QBO `ExchangeRate` is home-currency units per one foreign unit ('base-per-foreign'), but
 *   only relative to the QBO company's home currency (Preferences.CurrencyPrefs.HomeCurrency). If that
 *   home currency is not the billing base, or is unknown, the rate is relative to the wrong base:
 *   FX_UNDERIVABLE. A missing/zero rate falls back to HomeTotalAmt ÷ TotalAmt; exactly 1 is FX_SUSPECT;
 *   a rate that disagrees with HomeTotalAmt (QBO's own conversion, checkHomeTotal) is FX_SUSPECT too.
 *   Never 1:1.
 */
export function resolveDocumentCurrency(input: {
  currencyRef?: QboRef;
  exchangeRate: unknown;
  total: Decimal;
  homeTotal: unknown;
  lookups: QboLookups;
  baseCurrency: string;
}): MapResult<{ currency: string; exchangeRate?: number }> {
  const { lookups } = input;
  const currency = (input.currencyRef?.value ?? lookups.homeCurrency)?.trim().toUpperCase();
  if (!currency) return mapFail('MISSING_FIELD', 'CurrencyRef is missing and the company home currency is unknown', { field: 'CurrencyRef' });
  const base = input.baseCurrency.trim().toUpperCase();
  const warnings: string[] = [];
  const organisation = checkOrganisationBase({
    documentCurrency: currency,
    organisationBase: lookups.homeCurrency,
    billingBase: base,
    rateField: 'ExchangeRate',
    source: 'QuickBooks',
  });
  if (organisation) return organisation;
  const homeTotal = parseOptionalAmount(input.homeTotal, 'HomeTotalAmt');
  if (!homeTotal.ok) return homeTotal;
  const fx = resolveExchangeRate({
    invoiceCurrency: currency,
    baseCurrency: base,
    rate: input.exchangeRate,
    direction: 'base-per-foreign',
    ...(homeTotal.value === undefined ? {} : { fromTotals: { total: input.total, baseTotal: homeTotal.value } }),
    field: 'ExchangeRate',
  });
  if (!fx.ok) return fx;
  warnings.push(...(fx.warnings ?? []));
  return mapOk(fx.exchangeRate === undefined ? { currency } : { currency, exchangeRate: fx.exchangeRate }, warnings);
}

/**
 * The rate against QBO's own conversion (HomeTotalAmt), run after the amount checks so that a document
 * whose figures do not add up is reported as AMOUNTS_INCONSISTENT rather than as a rate problem.
 */
export function checkHomeTotal(input: { exchangeRate?: number; total: Decimal; homeTotal: unknown; baseCurrency: string }): MapFailure | undefined {
  if (input.exchangeRate === undefined) return undefined;
  const homeTotal = parseOptionalAmount(input.homeTotal, 'HomeTotalAmt');
  if (!homeTotal.ok) return homeTotal;
  if (homeTotal.value === undefined) return undefined;
  const check = crossCheckExchangeRate({
    exchangeRate: input.exchangeRate,
    total: input.total,
    baseTotal: homeTotal.value,
    baseCurrency: input.baseCurrency.trim().toUpperCase(),
  });
  return check.ok ? undefined : check;
}
