import {
  Money,
  parseAmountOrZero,
  parseOptionalAmount,
  ZERO,
  type Decimal,
  wireAmount,
} from '../../../src/mapping/index.js';
import type { Steps } from '../../../src/mapping/steps.js';
import type { ZohoInvoice, ZohoLineItem } from '../schemas.js';

/** Billing's TdsTax. */
export interface TdsTax {
  tds: number;
  tdsRate: number;
}

/** Billing rates are informational; 4 decimals keep 1.5 %, 0.75 %, 0.1 % intact. */
const RATE_DECIMALS = 4;

/**
 * TDS the customer withheld (India; https://www.zoho.com/books/api/v3/invoices/ and
 * https://www.zoho.com/books/api/v3/customer-payments/, `invoices[].tax_amount_withheld`). The customer
 * pays the invoice net of TDS and deposits the TDS with the government; Zoho records it on the payment
 * next to `amount_applied` and sums it on the invoice as `tax_amount_withheld`, which `balance` counts as
 * settled: balance = total − payment_made − credits_applied − write_off_amount − tax_amount_withheld.
 *
 * Billing: `invoiceTax.tdsTax` = {tds: tax_amount_withheld, tdsRate}, `invoiceTax.tds` the same amount,
 * and the withheld amount is part of `invoiceAdjustedAmount` (it is settled, not cash), so billing's
 * outstanding equals Zoho's balance to the paisa. The rate is the lines' `tds_tax_percentage` (one rate),
 * else `tds_summary`'s (one entry), else the effective rate on `sub_total`, with a warning.
 */
export interface WithheldTds {
  withheld: Decimal;
  tdsTax?: TdsTax;
}

export function withheldTdsOf(s: Steps, inv: ZohoInvoice, subtotal: Decimal, currency: string): WithheldTds {
  const withheld = s.take(parseAmountOrZero(inv.tax_amount_withheld, 'tax_amount_withheld'));
  if (withheld.isZero()) return { withheld: ZERO };
  const rate = tdsRateOf(s, inv, withheld, subtotal);
  return {
    withheld,
    tdsTax: { tds: wireAmount(s, withheld, currency, 'tax_amount_withheld'), tdsRate: rate.toNumber() },
  };
}

function tdsRateOf(s: Steps, inv: ZohoInvoice, withheld: Decimal, subtotal: Decimal): Decimal {
  const lineRates = inv.line_items
    .map((l, i) => s.take(parseOptionalAmount(l.tds_tax_percentage, `line_items.${i}.tds_tax_percentage`)))
    .filter((r): r is Decimal => r !== undefined && !r.isZero());
  const summaryRates = (inv.tds_summary ?? [])
    .map((t, i) => s.take(parseOptionalAmount(t.tax_percentage, `tds_summary.${i}.tax_percentage`)))
    .filter((r): r is Decimal => r !== undefined && !r.isZero());
  for (const rates of [lineRates, summaryRates]) {
    const distinct = [...new Set(rates.map((r) => r.toFixed()))];
    if (distinct.length === 1) return new Money(distinct[0]!);
  }
  const effective = subtotal.isZero() ? ZERO : withheld.times(100).div(subtotal).toDecimalPlaces(RATE_DECIMALS);
  s.warn(
    `tax_amount_withheld has no single stated TDS rate; sending the effective rate ${effective.toFixed()} % of sub_total`,
  );
  return effective;
}

/** A line's own TDS (`tds_tax_amount` at `tds_tax_percentage`), when Zoho states one. */
export function lineTdsOf(s: Steps, line: ZohoLineItem, i: number, currency: string): TdsTax | undefined {
  const amount = s.take(parseOptionalAmount(line.tds_tax_amount, `line_items.${i}.tds_tax_amount`));
  if (!amount || amount.isZero()) return undefined;
  const rate = s.take(parseOptionalAmount(line.tds_tax_percentage, `line_items.${i}.tds_tax_percentage`)) ?? ZERO;
  return { tds: wireAmount(s, amount, currency, `line_items.${i}.tds_tax_amount`), tdsRate: rate.toNumber() };
}
