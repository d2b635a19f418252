import { Decimal as DecimalJs } from 'decimal.js';
import { formatMoney, minorUnit, Money, parseAmount, roundMoney, type Decimal } from './money.js';
import { mapFail, mapOk, type MapFailure, type MapResult } from './quarantine-reason.js';

/**
 * The exchange-rate rule (docs/interface-assumptions.md A29): `exchangeRate` = base-currency units per
 * one invoice-currency unit (base amount = invoice amount × exchangeRate).
 * - Same currency as the company's base: omit the rate.
 * - Foreign currency and no usable rate: FX_UNDERIVABLE. Foreign currency and a rate of exactly 1:
 *   FX_SUSPECT (a vendor default, not a rate). Either way the record is quarantined, never sent at 1:1.
 *
 * Vendor directions (each connector's README gives the vendor's own example):
 * - Zoho `exchange_rate`, QuickBooks `ExchangeRate`: already base per foreign → 'base-per-foreign'.
 * - Xero `CurrencyRate`: foreign per one base unit (the likely reading, marked VERIFY) → 'foreign-per-base',
 *   inverted here. `crossCheckExchangeRate` against the vendor's base totals catches a wrong reading.
 */
export type RateDirection = 'base-per-foreign' | 'foreign-per-base';

export type ExchangeRateResult = { ok: true; exchangeRate?: number; warnings?: string[] } | MapFailure;

/**
 * Significant digits of a computed rate (an inverted Xero rate, or one derived from totals). 1/0.65 does not
 * terminate, so it must be cut somewhere: 10 significant digits is a relative error below 5e-10, under one
 * minor unit on any amount below 10^7, far finer than the 6 decimals Xero stores its own rate with; and it
 * is well inside a double's 15 exact digits, so the JSON number carries exactly the decimal we computed.
 */
export const RATE_SIGNIFICANT_DIGITS = 10;

const ISO_CODE = /^[A-Z]{3}$/;

export interface ResolveExchangeRateInput {
  invoiceCurrency: string;
  baseCurrency: string;
  /** The vendor's rate as received (number, numeric string, null/undefined when absent). */
  rate: unknown;
  direction: RateDirection;
  /**
   * Invoice total and the vendor's own base-currency total (Zoho `total`/`bcy_total`, QuickBooks
   * `TotalAmt`/`HomeTotalAmt`): used to derive the rate only when the rate itself is absent or zero.
   */
  fromTotals?: { total: Decimal; baseTotal: Decimal };
  /** Vendor field name, for messages. */
  field?: string;
}

export function resolveExchangeRate(input: ResolveExchangeRateInput): ExchangeRateResult {
  const field = input.field ?? 'exchangeRate';
  const invoiceCurrency = input.invoiceCurrency.trim().toUpperCase();
  const baseCurrency = input.baseCurrency.trim().toUpperCase();
  if (!ISO_CODE.test(invoiceCurrency)) {
    return mapFail(
      'INVALID_FIELD',
      `invoice currency ${JSON.stringify(input.invoiceCurrency)} is not an ISO 4217 code`,
      {
        field: 'currency',
      },
    );
  }
  if (!ISO_CODE.test(baseCurrency)) {
    return mapFail('INVALID_FIELD', `base currency ${JSON.stringify(input.baseCurrency)} is not an ISO 4217 code`, {
      field: 'baseCurrency',
    });
  }

  const parsed = parseAmount(input.rate, field);
  if (invoiceCurrency === baseCurrency) {
    // The rate is meaningless here; a value other than 1 is odd but harmless, so only worth a warning.
    const odd = parsed.ok && !parsed.value.eq(1) && !parsed.value.isZero();
    return odd
      ? { ok: true, warnings: [`${field} ${parsed.value.toFixed()} ignored: ${invoiceCurrency} is the base currency`] }
      : { ok: true };
  }

  const pair = `${invoiceCurrency} invoice in a ${baseCurrency} company`;
  let rate: Decimal;
  let derived = false;
  if (parsed.ok && parsed.value.gt(0)) {
    rate = parsed.value;
  } else if (parsed.ok && parsed.value.isNegative()) {
    return mapFail('FX_UNDERIVABLE', `${pair}: ${field} ${parsed.value.toFixed()} is negative`, { field });
  } else if (!parsed.ok && parsed.reason === 'INVALID_FIELD') {
    return mapFail('FX_UNDERIVABLE', `${pair}: ${parsed.message}`, { field });
  } else {
    // Absent or zero: the vendor's own base totals are the only other source.
    const fromTotals = input.fromTotals && deriveExchangeRate(input.fromTotals);
    if (!fromTotals) {
      return mapFail('FX_UNDERIVABLE', `${pair}: no ${field} and no base-currency totals to derive one from`, {
        field,
      });
    }
    rate = fromTotals;
    derived = true;
  }

  if (rate.eq(1)) {
    return mapFail('FX_SUSPECT', `${pair}: ${field} is exactly 1, a default rather than a rate`, { field });
  }
  if (!derived && input.direction === 'foreign-per-base') {
    rate = new Money(1).div(rate).toSignificantDigits(RATE_SIGNIFICANT_DIGITS, DecimalJs.ROUND_HALF_UP);
    if (rate.eq(1)) {
      return mapFail('FX_SUSPECT', `${pair}: inverted ${field} rounds to exactly 1`, { field });
    }
  }
  const exchangeRate = rate.toNumber();
  const warnings = derived ? [`${field} derived from base-currency totals: ${rate.toFixed()}`] : undefined;
  return warnings ? { ok: true, exchangeRate, warnings } : { ok: true, exchangeRate };
}

/**
 * Base per foreign, from a total and the vendor's base-currency total: baseTotal ÷ total, to
 * RATE_SIGNIFICANT_DIGITS. Undefined when it cannot be derived (zero total, zero or opposite-sign base).
 */
export function deriveExchangeRate(input: { total: Decimal; baseTotal: Decimal }): Decimal | undefined {
  const { total, baseTotal } = input;
  if (total.isZero() || baseTotal.isZero() || total.isNegative() !== baseTotal.isNegative()) return undefined;
  return new Money(baseTotal).div(total).toSignificantDigits(RATE_SIGNIFICANT_DIGITS, DecimalJs.ROUND_HALF_UP);
}

/**
 * Checks a resolved rate against the vendor's own base-currency total. Vendors convert line by line and
 * round each line, and store rates with few decimals, so the two can differ slightly: the check allows
 * the larger of `toleranceMinorUnits` of the base currency and `relativeTolerance` of the base total
 * (default 0.01 %). A rate read in the wrong direction (the Xero trap) or a stale rate is far outside that.
 * Failure is FX_SUSPECT; the message says whether the inverse rate would have matched.
 */
export function crossCheckExchangeRate(input: {
  exchangeRate: number | Decimal;
  total: Decimal;
  baseTotal: Decimal;
  baseCurrency: string;
  toleranceMinorUnits?: number;
  relativeTolerance?: number;
}): MapResult<{ expectedBaseTotal: Decimal }> {
  const { total, baseTotal, baseCurrency } = input;
  const rate = new Money(input.exchangeRate);
  const tolerance = DecimalJs.max(
    minorUnit(baseCurrency).times(input.toleranceMinorUnits ?? 1),
    baseTotal.abs().times(input.relativeTolerance ?? 0.0001),
  );
  const expected = roundMoney(total.times(rate), baseCurrency);
  if (expected.minus(baseTotal).abs().lte(tolerance)) return mapOk({ expectedBaseTotal: expected });
  const inverse = rate.isZero() ? undefined : roundMoney(total.div(rate), baseCurrency);
  const hint =
    inverse && inverse.minus(baseTotal).abs().lte(tolerance)
      ? '; the inverse rate matches, so the direction is wrong'
      : '';
  return mapFail(
    'FX_SUSPECT',
    `total × rate ${rate.toFixed()} = ${formatMoney(expected, baseCurrency)} ${baseCurrency}, but the vendor's base total is ${formatMoney(baseTotal, baseCurrency)}${hint}`,
    { field: 'exchangeRate' },
  );
}

/**
 * Every ERP states its exchange rates against the ERP organisation's own base currency (Zoho's
 * organisation, QuickBooks' home currency, Xero's organisation). A document in a currency other than the
 * billing base can use that rate only when the organisation's base IS the billing base; otherwise the
 * rate belongs to another currency pair and nothing here converts it: FX_UNDERIVABLE, never 1:1. A
 * document already in the billing base needs no rate, whatever the organisation's base.
 */
export function checkOrganisationBase(input: {
  documentCurrency: string;
  /** The ERP organisation's base currency; undefined when its lookup is missing. */
  organisationBase: string | undefined;
  billingBase: string;
  /** The vendor's rate field, for the message ("exchange_rate", "ExchangeRate", "CurrencyRate"). */
  rateField: string;
  /** The vendor's name for the message ("Zoho Books", "QuickBooks", "Xero"). */
  source: string;
}): MapFailure | undefined {
  const currency = input.documentCurrency.trim().toUpperCase();
  const base = input.billingBase.trim().toUpperCase();
  if (currency === base) return undefined;
  const org = input.organisationBase?.trim().toUpperCase();
  if (!org) {
    return mapFail(
      'FX_UNDERIVABLE',
      `${currency} document: the ${input.source} organisation's base currency is unknown, so ${input.rateField} has no known base`,
      {
        field: input.rateField,
      },
    );
  }
  if (org === base) return undefined;
  return mapFail(
    'FX_UNDERIVABLE',
    `${currency} document: ${input.source} ${input.rateField} converts to the organisation's base currency ${org}, not to the billing base ${base}`,
    { field: input.rateField },
  );
}
