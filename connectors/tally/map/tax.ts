import type { Tax } from '../../../src/billing/schemas/index.js';
import {
  allocateMoney,
  buildTax,
  dec,
  type Decimal,
  findIndianState,
  mapFail,
  type TaxComponent,
  type TaxKind,
  ZERO,
} from '../../../src/mapping/index.js';
import type { Steps } from '../../../src/mapping/steps.js';
import type { TallyLookups } from '../streams/lookups.js';

/**
 * GST from a voucher's ledger entries. Tally posts output tax to ledgers under "Duties & Taxes"; the
 * ledger master's GST duty head says which tax it is ("Central Tax" CGST, "State Tax" / "UT Tax" SGST,
 * "Integrated Tax" IGST, "Cess") and its rate of tax calculation at what rate (tally-database-loader's
 * ledger fields, https://github.com/dhananjay1405/tally-database-loader). Tally's amount per tax ledger is
 * the figure billing receives; the lines' shares are that amount spread over the lines it applies to.
 */
export interface TaxEntry {
  kind: TaxKind | 'tds';
  ledger: string;
  /** In billing's sign: positive is tax charged on an invoice (or reversed on a credit note). */
  amount: Decimal;
  rate: Decimal;
}

const KIND_OF_DUTY: Record<string, TaxKind | 'tds'> = {
  'central tax': 'cgst',
  'state tax': 'sgst',
  'ut tax': 'utgst',
  'integrated tax': 'igst',
  cess: 'cess',
  tds: 'tds',
};

/** The tax a ledger is, from its master; undefined for a ledger that is no tax. */
export function taxKindOf(ledger: string, lookups: TallyLookups): { kind: TaxKind | 'tds'; rate?: string } | undefined {
  const master = lookups.taxLedgers[ledger];
  const kind = master?.dutyHead ? KIND_OF_DUTY[master.dutyHead.trim().toLowerCase()] : undefined;
  return kind ? { kind, ...(master?.rate ? { rate: master.rate } : {}) } : undefined;
}

/** A line's GST rates from its RATEDETAILS (Integrated Tax = the total GST rate; Cess). */
export interface LineRates {
  gst?: Decimal;
  cess?: Decimal;
}

/** The rate a tax entry's line share is keyed by: CGST/SGST at half the line's GST rate. */
function lineRateFor(kind: TaxKind, rates: LineRates): Decimal | undefined {
  if (kind === 'cess') return rates.cess;
  if (kind === 'igst') return rates.gst;
  if (kind === 'cgst' || kind === 'sgst' || kind === 'utgst') return rates.gst?.div(2);
  return undefined;
}

/**
 * Each line's tax: every GST entry spread over the lines charged at its rate (by taxable amount, to the
 * paisa, summing exactly to the entry), or over every line when no line says its rate.
 */
export function lineTaxes(
  s: Steps,
  entries: readonly TaxEntry[],
  lines: ReadonlyArray<{ amount: Decimal; rates: LineRates }>,
  currency: string,
): Array<{ tax?: Tax; amount: Decimal; rate: Decimal }> {
  const parts: TaxComponent[][] = lines.map(() => []);
  for (const e of entries) {
    if (e.kind === 'tds' || e.kind === 'other' || e.amount.isZero()) continue;
    const kind = e.kind;
    let idx = lines.map((_, i) => i).filter((i) => lineRateFor(kind, lines[i]!.rates)?.equals(e.rate));
    if (idx.length === 0) idx = lines.map((_, i) => i).filter((i) => !lines[i]!.amount.isZero());
    if (idx.length === 0) continue;
    const shares = allocateMoney(
      e.amount,
      idx.map((i) => lines[i]!.amount.abs()),
      currency,
    );
    idx.forEach((i, j) => parts[i]!.push({ kind, amount: shares[j]!, rate: e.rate, name: e.ledger }));
  }
  return parts.map((components, i) => {
    if (components.length === 0) return { amount: ZERO, rate: ZERO };
    const tax = s.take(buildTax(components, currency, `ALLINVENTORYENTRIES.LIST.${i}`));
    const amount = components.reduce((sum, c) => sum.plus(c.amount), ZERO);
    const rate = components.filter((c) => c.kind !== 'cess').reduce((sum, c) => sum.plus(c.rate), ZERO);
    return { tax, amount, rate };
  });
}

/** The voucher's tax: the GST entries (and TDS) as billing's Tax. */
export function documentTax(s: Steps, entries: readonly TaxEntry[], currency: string): Tax {
  const gst = entries.filter((e) => e.kind !== 'tds' && e.kind !== 'other' && !e.amount.isZero());
  const components: TaxComponent[] = gst.map((e) => ({
    kind: e.kind as TaxKind,
    amount: e.amount,
    rate: e.rate,
    name: e.ledger,
  }));
  return s.take(buildTax(components, currency, 'LEDGERENTRIES.LIST'));
}

/**
 * PLACEOFSUPPLY (a state name: "Karnataka") → the GST portal's two-letter code and the GST state code;
 * nothing for an export (blank, or outside India). A name that is no Indian state is INVALID_FIELD.
 */
export function supplyOf(
  s: Steps,
  placeOfSupply: string | undefined,
): { placeOfSupply?: string; supplyStateCode?: string } {
  const name = placeOfSupply?.trim();
  if (!name) return {};
  const state = findIndianState(name);
  if (!state)
    return s.fail(
      mapFail('INVALID_FIELD', `PLACEOFSUPPLY ${JSON.stringify(name)} is not an Indian state or UT`, {
        field: 'PLACEOFSUPPLY',
      }),
    );
  return { placeOfSupply: state.code, supplyStateCode: state.gstCode };
}

export const rateOf = (raw: string | undefined): Decimal => (raw ? dec(raw.trim().replace(/%$/, '')) : ZERO);
