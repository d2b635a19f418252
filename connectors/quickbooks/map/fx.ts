import type { MapContext } from '../../../src/connector/types.js';
import {
  crossCheckExchangeRate,
  type Decimal,
  documentExchangeRate,
  mapFail,
  parseOptionalAmount,
} from '../../../src/mapping/index.js';
import type { Steps } from '../../../src/mapping/steps.js';
import type { QboRef } from '../schemas.js';
import type { QboLookups } from '../streams/lookups.js';

/**
 * Currency and exchange rate of a QBO document. QBO's `ExchangeRate` is "the number of home currency
 * units it takes to equal one foreign currency unit"
 * (https://developer.intuit.com/app/developer/qbo/docs/workflows/manage-multiple-currencies): billing's
 * direction already ('base-per-foreign'), but relative to the QBO company's home currency
 * (Preferences.CurrencyPrefs.HomeCurrency). The rules (same currency: no rate; organisation base ≠
 * billing base: FX_UNDERIVABLE; no usable rate: FX_UNDERIVABLE; exactly 1: FX_SUSPECT; never 1:1) are
 * src/mapping/currency.ts's.
 */

/** `CurrencyRef.value`, else the company's home currency (single-currency companies send no CurrencyRef). */
export function currencyOf(s: Steps, currencyRef: QboRef | undefined, lookups: QboLookups): string {
  const currency = (currencyRef?.value ?? lookups.homeCurrency)?.trim().toUpperCase();
  if (!currency)
    return s.fail(
      mapFail('MISSING_FIELD', 'CurrencyRef is missing and the company home currency is unknown', {
        field: 'CurrencyRef',
      }),
    );
  return currency;
}

/**
 * The billing exchange rate of a document in `currency`: none in the billing base currency; else QBO's
 * `ExchangeRate` when the home currency is the billing base, a missing or zero rate derived from
 * `HomeTotalAmt ÷ TotalAmt` (with a warning).
 */
export function exchangeRateOf(
  s: Steps,
  doc: { currency: string; exchangeRate: unknown; total: Decimal; homeTotal: unknown },
  ctx: MapContext<unknown>,
  lookups: QboLookups,
): number | undefined {
  return documentExchangeRate(s, {
    documentCurrency: doc.currency,
    organisationBase: lookups.homeCurrency,
    billingBase: ctx.baseCurrency,
    rate: doc.exchangeRate,
    direction: 'base-per-foreign',
    rateField: 'ExchangeRate',
    source: 'QuickBooks',
    baseTotal: { raw: doc.homeTotal, field: 'HomeTotalAmt', total: doc.total },
  }).exchangeRate;
}

/**
 * The rate against QBO's own conversion (HomeTotalAmt): FX_SUSPECT when they disagree. Run after the
 * amount checks, so that a document whose figures do not add up is reported as AMOUNTS_INCONSISTENT
 * rather than as a rate problem.
 */
export function checkHomeTotal(
  s: Steps,
  input: { exchangeRate?: number; total: Decimal; homeTotal: unknown; baseCurrency: string },
): void {
  if (input.exchangeRate === undefined) return;
  const homeTotal = s.take(parseOptionalAmount(input.homeTotal, 'HomeTotalAmt'));
  if (homeTotal === undefined) return;
  s.takeQuietly(
    crossCheckExchangeRate({
      exchangeRate: input.exchangeRate,
      total: input.total,
      baseTotal: homeTotal,
      baseCurrency: input.baseCurrency.trim().toUpperCase(),
    }),
  );
}
