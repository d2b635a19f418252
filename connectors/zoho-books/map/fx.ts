import { crossCheckExchangeRate, documentExchangeRate, mapFail } from '../../../src/mapping/index.js';
import type { Steps } from '../../../src/mapping/steps.js';
import type { MapContext } from '../../../src/connector/types.js';
import type { ZohoDocument } from '../schemas.js';
import type { ZohoLookups } from '../streams/lookups.js';
import type { DocumentAmounts } from './totals.js';

/**
 * Currency and exchange rate. Zoho's `exchange_rate` is base units per one document-currency unit,
 * relative to the Zoho organisation's base currency — Zoho's own example: an organisation with base USD
 * and an invoice in EUR carries exchange_rate 1.18 (1 EUR = 1.18 USD), and 1.0 in the base currency
 * (https://www.zoho.com/books/api/v3/invoices/). That is already billing's direction; the rules (same
 * currency: no rate; foreign with no usable rate: FX_UNDERIVABLE; exactly 1: FX_SUSPECT) are
 * src/mapping/currency.ts's.
 */

/** ISO code of the document currency, upper-case. */
export function currencyOf(s: Steps, raw: string): string {
  const code = raw.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code))
    s.fail(
      mapFail('INVALID_FIELD', `currency_code ${JSON.stringify(raw)} is not an ISO 4217 code`, {
        field: 'currency_code',
      }),
    );
  return code;
}

/**
 * The billing exchange rate. When the Zoho organisation's base currency is not the billing company's,
 * the rate is for another currency pair: a document in the billing base currency needs none, anything
 * else cannot be converted and is FX_UNDERIVABLE (never sent at 1:1 or at the wrong pair's rate). A
 * missing or zero rate is derived from Zoho's `bcy_total` (base-currency total); a rate is cross-checked
 * against `bcy_total` when present (FX_SUSPECT when they disagree).
 */
export function exchangeRateOf(
  s: Steps,
  doc: ZohoDocument,
  a: DocumentAmounts,
  ctx: MapContext<unknown>,
  lookups: ZohoLookups,
): number | undefined {
  const { exchangeRate, baseTotal } = documentExchangeRate(s, {
    documentCurrency: a.currency,
    organisationBase: lookups.organization.baseCurrency,
    billingBase: ctx.baseCurrency,
    rate: doc.exchange_rate,
    direction: 'base-per-foreign',
    rateField: 'exchange_rate',
    source: 'Zoho Books',
    baseTotal: { raw: doc.bcy_total, field: 'bcy_total', total: a.total },
  });
  if (exchangeRate !== undefined && baseTotal) {
    s.take(
      crossCheckExchangeRate({
        exchangeRate,
        total: a.total,
        baseTotal,
        baseCurrency: ctx.baseCurrency.trim().toUpperCase(),
      }),
    );
  }
  return exchangeRate;
}
