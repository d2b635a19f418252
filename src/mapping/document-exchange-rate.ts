import { checkOrganisationBase, resolveExchangeRate, type RateDirection } from './currency.js';
import { parseOptionalAmount, type Decimal } from './money.js';
import type { Steps } from './steps.js';

export interface DocumentExchangeRateInput {
  documentCurrency: string;
  /** The ERP organisation's base currency (from the connector's lookups); undefined when unknown. */
  organisationBase: string | undefined;
  /** The billing company's base currency (MapContext.baseCurrency). */
  billingBase: string;
  /** The vendor's rate as received. */
  rate: unknown;
  direction: RateDirection;
  /** The vendor's rate field and name, for messages ("exchange_rate", "Zoho Books"). */
  rateField: string;
  source: string;
  /**
   * The vendor's own base-currency total, raw, with its field and the document total: it derives a
   * missing or zero rate. Vendors that send none (Xero) leave it out.
   */
  baseTotal?: { raw: unknown; field: string; total: Decimal };
}

export interface DocumentExchangeRate {
  exchangeRate?: number;
  /** The parsed base-currency total, for a later cross-check; undefined when absent. */
  baseTotal?: Decimal;
}

/**
 * Every connector's exchange-rate step, in this order: the organisation-base rule
 * (checkOrganisationBase: a rate against another base is FX_UNDERIVABLE), then the base total (a
 * malformed one fails the record), then the rate itself (resolveExchangeRate: none in the billing base,
 * never 1:1), its warnings kept.
 */
export function documentExchangeRate(s: Steps, input: DocumentExchangeRateInput): DocumentExchangeRate {
  const billingBase = input.billingBase.trim().toUpperCase();
  s.check(
    checkOrganisationBase({
      documentCurrency: input.documentCurrency,
      organisationBase: input.organisationBase,
      billingBase,
      rateField: input.rateField,
      source: input.source,
    }),
  );
  const total = input.baseTotal;
  const baseTotal = total === undefined ? undefined : s.take(parseOptionalAmount(total.raw, total.field));
  const resolved = resolveExchangeRate({
    invoiceCurrency: input.documentCurrency,
    baseCurrency: billingBase,
    rate: input.rate,
    direction: input.direction,
    ...(total === undefined || baseTotal === undefined ? {} : { fromTotals: { total: total.total, baseTotal } }),
    field: input.rateField,
  });
  if (!resolved.ok) s.fail(resolved);
  resolved.warnings?.forEach((w) => s.warn(w));
  return { exchangeRate: resolved.exchangeRate, baseTotal };
}
