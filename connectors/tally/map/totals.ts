import type { Adjustment, LineItem, Tax } from '../../../src/billing/schemas/index.js';
import {
  checkInvoiceTotal,
  type Decimal,
  formatMoney,
  mapFail,
  sumMoney,
  wireAmount,
  ZERO,
} from '../../../src/mapping/index.js';
import type { Steps } from '../../../src/mapping/steps.js';
import type { TallyLedgerEntry, TallyVoucher } from '../schemas.js';
import type { TallyLookups } from '../streams/lookups.js';
import { lineItemOf, parseLine } from './lines.js';
import { documentTax, lineTaxes, taxKindOf, type TaxEntry } from './tax.js';
import { parseTallyAmount, parseTallyPercent } from './tally-values.js';

/**
 * The money of a Sales or Credit Note voucher, from its entries (Tally keeps no document total):
 *
 *   Σ ledger entries + Σ inventory entries = 0      (double entry: every voucher balances, to the paisa)
 *   total    = the party's entry (debited on an invoice: negative; credited on a credit note)
 *   subtotal = Σ inventory amounts
 *   tax      = Σ entries to GST ledgers (taxKindOf: the ledger master's duty head and rate)
 *   rounding = Σ entries to a round-off ledger; other ledgers (freight, packing) are adjustments
 *   total    = subtotal + tax + adjustments + rounding
 *
 * Signs (negative a debit, positive a credit; tally-database-loader's docs,
 * https://github.com/dhananjay1405/tally-database-loader) are turned into billing's: positive amounts on
 * an invoice and on a credit note alike (`sign` +1 for Sales, −1 for Credit Note). A voucher that does not
 * balance, or whose total is not its parts, is AMOUNTS_INCONSISTENT. TDS a customer deducts is a ledger
 * under Duties & Taxes with the TDS type: it lowers what the party owes and travels as the tax's `tds`.
 */
export interface VoucherAmounts {
  currency: string;
  subtotal: Decimal;
  total: Decimal;
  tax: Tax;
  taxTotal: Decimal;
  tds: Decimal;
  rounding: Decimal;
  adjustments: Adjustment[];
  lineItems: LineItem[];
}

const same = (a: string | undefined, b: string | undefined) =>
  (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();

export function ledgerEntriesOf(v: TallyVoucher): TallyLedgerEntry[] {
  return v['LEDGERENTRIES.LIST'] ?? v['ALLLEDGERENTRIES.LIST'] ?? [];
}

export function amountsOf(
  s: Steps,
  v: TallyVoucher,
  lookups: TallyLookups,
  sign: 1 | -1,
  currency: string,
): VoucherAmounts {
  const entries = ledgerEntriesOf(v);
  const field = v['LEDGERENTRIES.LIST'] ? 'LEDGERENTRIES.LIST' : 'ALLLEDGERENTRIES.LIST';
  const inventory = v['ALLINVENTORYENTRIES.LIST'] ?? [];
  const amounts = entries.map((e, i) => s.take(parseTallyAmount(e.AMOUNT, `${field}.${i}.AMOUNT`)));
  const lines = inventory.map((raw, i) => parseLine(s, raw, i, sign));

  // Double entry: the voucher's entries add up to zero (lines are in billing's sign: back to Tally's).
  const balance = sumMoney(amounts).plus(sumMoney(lines.map((l) => l.amount.times(sign))));
  if (!balance.isZero())
    s.fail(
      mapFail(
        'AMOUNTS_INCONSISTENT',
        `${field}: the voucher's ledger and inventory entries do not balance (they add up to ${formatMoney(balance, currency)} ${currency}, not 0)`,
        { field },
      ),
    );

  const partyAt = entries.findIndex((e) => same(e.LEDGERNAME, v.PARTYLEDGERNAME));
  if (partyAt < 0)
    s.fail(
      mapFail('MISSING_FIELD', 'PARTYLEDGERNAME has no ledger entry: the party of the voucher is unknown', {
        field: 'PARTYLEDGERNAME',
      }),
    );
  const total = amounts[partyAt]!.times(-sign);

  const taxes: TaxEntry[] = [];
  let rounding = ZERO;
  const adjustments: Adjustment[] = [];
  let adjustmentTotal = ZERO;
  entries.forEach((e, i) => {
    if (i === partyAt) return;
    const ledger = e.LEDGERNAME?.trim() ?? '';
    const amount = amounts[i]!.times(sign);
    const kind = taxKindOf(ledger, lookups);
    if (kind) {
      const rate = s.take(parseTallyPercent(kind.rate, `taxLedgers.${ledger}.RATEOFTAXCALCULATION`)) ?? ZERO;
      taxes.push({ kind: kind.kind, ledger, amount, rate });
    } else if (/round/i.test(ledger)) rounding = rounding.plus(amount);
    else {
      adjustmentTotal = adjustmentTotal.plus(amount);
      if (!amount.isZero())
        adjustments.push({
          name: ledger || 'Adjustment',
          amount: wireAmount(s, amount, currency, `${field}.${i}.AMOUNT`),
          isPostTax: true,
        });
    }
  });
  const gst = taxes.filter((t) => t.kind !== 'tds');
  const tds = sumMoney(taxes.filter((t) => t.kind === 'tds').map((t) => t.amount.negated()));
  const subtotal = sumMoney(lines.map((l) => l.amount));
  const taxTotal = sumMoney(gst.map((t) => t.amount));
  s.check(
    checkInvoiceTotal({
      subtotal,
      tax: taxTotal,
      adjustments: [adjustmentTotal, tds.negated()],
      rounding,
      total,
      currency,
      toleranceMinorUnits: 0,
    }),
  );
  const perLine = lineTaxes(s, gst, lines, currency);
  const tax = documentTax(s, gst, currency);
  if (!tds.isZero()) tax.tds = wireAmount(s, tds, currency, 'tds');
  return {
    currency,
    subtotal,
    total,
    tax,
    taxTotal,
    tds,
    rounding,
    adjustments,
    lineItems: lines.map((l, i) => lineItemOf(s, l, i, perLine[i]!, currency)),
  };
}

/** Round-off and other ledgers as billing adjustments (post-tax), so subtotal + tax + Σ adjustments = total. */
export function adjustmentsOf(s: Steps, a: VoucherAmounts): Adjustment[] {
  const out = [...a.adjustments];
  if (!a.rounding.isZero())
    out.push({ name: 'Round off', amount: wireAmount(s, a.rounding, a.currency, 'Round Off'), isPostTax: true });
  if (!a.tds.isZero())
    out.push({ name: 'TDS deducted', amount: wireAmount(s, a.tds.negated(), a.currency, 'TDS'), isPostTax: true });
  return out;
}
