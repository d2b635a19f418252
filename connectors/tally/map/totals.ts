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
 *   total    = the party's entry (debited on an invoice: negative; credited on a credit note) + TDS withheld
 *   subtotal = Σ inventory amounts
 *   tax      = Σ entries to GST ledgers (taxKindOf: the ledger master's duty head and rate)
 *   rounding = Σ entries to a round-off ledger; other ledgers (freight, packing) are adjustments
 *   total    = subtotal + tax + adjustments + rounding
 *
 * Signs (negative a debit, positive a credit; tally-database-loader's docs,
 * https://github.com/dhananjay1405/tally-database-loader) are turned into billing's: positive amounts on
 * an invoice and on a credit note alike (`sign` +1 for Sales, −1 for Credit Note). A voucher that does not
 * balance, or whose total is not its parts, is AMOUNTS_INCONSISTENT. TDS a customer deducts is a ledger
 * under Duties & Taxes with the TDS type, debited beside the party: the total is the party's entry plus it
 * (the invoice's value), it travels as the tax's `tds` and `tdsTax` {tds, tdsRate}, and the invoice mapper
 * counts it as adjusted (settled, not cash), so billing's outstanding is the party's entry to the paisa.
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
  const e = balancedEntries(s, v, sign, currency);
  const parts = partsOf(s, e, lookups, sign, currency);
  const gst = parts.taxes.filter((t) => t.kind !== 'tds');
  const withheld = parts.taxes.filter((t) => t.kind === 'tds');
  // TDS the customer deducted: the ledger is debited on an invoice (negative in billing's sign).
  const tds = sumMoney(withheld.map((t) => t.amount.negated()));
  // The invoice's value is what the party owes plus what it withheld: TDS settles part of it, as a payment would.
  const total = e.party.plus(tds);
  const subtotal = sumMoney(e.lines.map((l) => l.amount));
  const taxTotal = sumMoney(gst.map((t) => t.amount));
  s.check(
    checkInvoiceTotal({
      subtotal,
      tax: taxTotal,
      adjustments: [parts.adjustmentTotal],
      rounding: parts.rounding,
      total,
      currency,
      toleranceMinorUnits: 0,
    }),
  );
  const perLine = lineTaxes(s, gst, e.lines, currency);
  const tax = documentTax(s, gst, currency);
  if (!tds.isZero()) {
    const tdsTax = {
      tds: wireAmount(s, tds, currency, 'tds'),
      tdsRate: tdsRateOf(s, withheld, tds, subtotal).toNumber(),
    };
    Object.assign(tax, { tds: tdsTax.tds, tdsTax });
  }
  return {
    currency,
    subtotal,
    total,
    tax,
    taxTotal,
    tds,
    rounding: parts.rounding,
    adjustments: parts.adjustments,
    lineItems: e.lines.map((l, i) => lineItemOf(s, l, i, perLine[i]!, currency)),
  };
}

/** The voucher's entries parsed, checked to balance, and its party's entry in billing's sign. */
interface Entries {
  field: string;
  entries: TallyLedgerEntry[];
  amounts: Decimal[];
  lines: ReturnType<typeof parseLine>[];
  partyAt: number;
  party: Decimal;
}

function balancedEntries(s: Steps, v: TallyVoucher, sign: 1 | -1, currency: string): Entries {
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
  return { field, entries, amounts, lines, partyAt, party: amounts[partyAt]!.times(-sign) };
}

/** Every entry but the party's: a tax (GST or TDS, by its ledger master), round-off, or another adjustment. */
function partsOf(s: Steps, e: Entries, lookups: TallyLookups, sign: 1 | -1, currency: string) {
  const taxes: TaxEntry[] = [];
  let rounding = ZERO;
  const adjustments: Adjustment[] = [];
  let adjustmentTotal = ZERO;
  e.entries.forEach((entry, i) => {
    if (i === e.partyAt) return;
    const ledger = entry.LEDGERNAME?.trim() ?? '';
    const amount = e.amounts[i]!.times(sign);
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
          amount: wireAmount(s, amount, currency, `${e.field}.${i}.AMOUNT`),
          isPostTax: true,
        });
    }
  });
  return { taxes, rounding, adjustments, adjustmentTotal };
}

/** The TDS rate: the TDS ledgers' one rate, else the effective rate on the subtotal (with a warning). */
function tdsRateOf(s: Steps, withheld: readonly TaxEntry[], tds: Decimal, subtotal: Decimal): Decimal {
  const rates = [...new Set(withheld.filter((t) => !t.rate.isZero()).map((t) => t.rate.toFixed()))];
  if (rates.length === 1) return withheld.find((t) => t.rate.toFixed() === rates[0])!.rate;
  s.warn('TDS ledgers name no single rate: the TDS rate is the effective rate on the subtotal');
  return subtotal.isZero() ? ZERO : tds.times(100).div(subtotal).toDecimalPlaces(2);
}

/** Round-off and other ledgers as billing adjustments (post-tax), so subtotal + tax + Σ adjustments = total. */
export function adjustmentsOf(s: Steps, a: VoucherAmounts): Adjustment[] {
  const out = [...a.adjustments];
  if (!a.rounding.isZero())
    out.push({ name: 'Round off', amount: wireAmount(s, a.rounding, a.currency, 'Round Off'), isPostTax: true });
  return out;
}
