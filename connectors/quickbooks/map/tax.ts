import {
  allocateMoney,
  type Decimal,
  dec,
  mapOk,
  type MapResult,
  parseAmount,
  parseOptionalAmount,
  type TaxComponent,
  type TaxKind,
} from '../../../src/mapping/index.js';
import type { QboTaxLine } from '../schemas.js';
import type { ItemLine } from './lines.js';
import type { QboLookups } from './lookups.js';

/**
 * QBO tax lives in `TxnTaxDetail.TaxLine[]`, not on lines (reference §2.4, trap 14). Each TaxLine is
 * `{Amount, TaxLineDetail: {TaxRateRef, TaxPercent, NetAmountTaxable}}`; the TaxRate it refers to is
 * resolved through `SELECT * FROM TaxRate` (lookups).
 *
 * Classification of each TaxLine into the billing GST slots:
 * 1. the TaxRate's name (or its agency's) says CGST, SGST, UTGST, IGST or CESS as a whole word — QBO
 *    India's own rates are named that way ("CGST 9%", "IGST 18%"), so this is the rate's identity, not
 *    a guess from a user-typed label;
 * 2. otherwise, for an Indian company, the supply's geography decides: intra-state → the unnamed lines
 *    are CGST/SGST pairs, matched by equal TaxPercent (first of a pair CGST, second SGST); inter-state
 *    (or SEZ/overseas) → IGST;
 * 3. otherwise (not India, or the place of supply is unknown) → an "other" tax under the rate's name.
 * Rate = TaxPercent, else the TaxRate's RateValue, else Amount ÷ NetAmountTaxable.
 */
export interface DocTaxComponent extends TaxComponent {
  rateId?: string;
}

const NAMED_KINDS: ReadonlyArray<readonly [RegExp, TaxKind]> = [
  [/\bCGST\b/i, 'cgst'],
  [/\bUTGST\b/i, 'utgst'],
  [/\bSGST\b/i, 'sgst'],
  [/\bIGST\b/i, 'igst'],
  [/\bCESS\b/i, 'cess'],
];

export function kindFromName(text: string | undefined): TaxKind | undefined {
  if (!text) return undefined;
  return NAMED_KINDS.find(([re]) => re.test(text))?.[1];
}

export function classifyTaxLines(input: {
  taxLines: readonly QboTaxLine[];
  lookups: QboLookups;
  indian: boolean;
  intraState: boolean | undefined;
}): MapResult<{ components: DocTaxComponent[]; warnings: string[] }> {
  const { lookups } = input;
  const warnings: string[] = [];
  const components: Array<Omit<DocTaxComponent, 'kind'> & { kind: TaxKind | 'unknown' }> = [];
  for (const [i, line] of input.taxLines.entries()) {
    const field = `TxnTaxDetail.TaxLine.${i}`;
    const amount = parseAmount(line.Amount, `${field}.Amount`);
    if (!amount.ok) return amount;
    const d = line.TaxLineDetail ?? {};
    const rateId = d.TaxRateRef?.value;
    const known = rateId === undefined ? undefined : lookups.taxRates[rateId];
    const rate = rateOf(amount.value, d, known?.rate, field);
    if (!rate.ok) return rate;
    if (rate.warning) warnings.push(rate.warning);
    const name = known?.name ?? d.TaxRateRef?.name ?? (rateId === undefined ? `Tax line ${i + 1}` : `TaxRate ${rateId}`);
    const kind = kindFromName(known?.name ?? d.TaxRateRef?.name) ?? kindFromName(known?.agency) ?? 'unknown';
    components.push({ kind, amount: amount.value, rate: rate.value, name, ...(rateId === undefined ? {} : { rateId }) });
  }

  const unknown = components.filter((c) => c.kind === 'unknown');
  if (unknown.length > 0) {
    if (!input.indian) {
      for (const c of unknown) c.kind = 'other';
    } else if (input.intraState === false) {
      for (const c of unknown) c.kind = 'igst';
    } else if (input.intraState === true) {
      const byRate = new Map<string, typeof unknown>();
      for (const c of unknown) byRate.set(c.rate.toFixed(), [...(byRate.get(c.rate.toFixed()) ?? []), c]);
      for (const [rate, group] of byRate) {
        group.forEach((c, k) => (c.kind = k % 2 === 0 ? 'cgst' : 'sgst'));
        if (group.length % 2 === 1) {
          group[group.length - 1]!.kind = 'other';
          warnings.push(`intra-state supply with an unpaired ${rate} % tax line; sent as "${group[group.length - 1]!.name}"`);
        }
      }
    } else {
      for (const c of unknown) c.kind = 'other';
      warnings.push('place of supply unknown: tax lines whose rate names do not say CGST/SGST/IGST are sent under their own names');
    }
  }
  if (input.intraState === true && components.some((c) => c.kind === 'igst' && !c.amount.isZero())) {
    warnings.push('IGST charged on what the addresses say is an intra-state supply');
  }
  if (input.intraState === false && components.some((c) => (c.kind === 'cgst' || c.kind === 'sgst') && !c.amount.isZero())) {
    warnings.push('CGST/SGST charged on what the addresses say is an inter-state supply');
  }
  return mapOk({ components: components as DocTaxComponent[], warnings });
}

function rateOf(
  amount: Decimal,
  d: { TaxPercent?: unknown; NetAmountTaxable?: unknown },
  lookupRate: string | undefined,
  field: string,
): { ok: true; value: Decimal; warning?: string } | Extract<MapResult<never>, { ok: false }> {
  const percent = parseOptionalAmount(d.TaxPercent, `${field}.TaxLineDetail.TaxPercent`);
  if (!percent.ok) return percent;
  if (percent.value !== undefined) return { ok: true, value: percent.value };
  const fromLookup = parseOptionalAmount(lookupRate, `${field} TaxRate.RateValue`);
  if (fromLookup.ok && fromLookup.value !== undefined) return { ok: true, value: fromLookup.value };
  const net = parseOptionalAmount(d.NetAmountTaxable, `${field}.TaxLineDetail.NetAmountTaxable`);
  if (net.ok && net.value !== undefined && !net.value.isZero()) {
    return { ok: true, value: amount.times(100).div(net.value).toDecimalPlaces(4) };
  }
  return { ok: true, value: dec(0), warning: `${field}: no TaxPercent, rate or taxable amount; rate sent as 0` };
}

/**
 * Spreads each document tax component over the item lines it applies to, exact to the minor unit
 * (allocateMoney, by line amount), so line taxes add up to the document's TaxLines. A line takes a
 * component when its TaxCode lists that TaxRate; when no line's TaxCode is known, every taxable line
 * (TaxCodeRef other than NON) with an amount takes it.
 */
export function allocateTaxToLines(
  components: readonly DocTaxComponent[],
  items: readonly ItemLine[],
  lookups: QboLookups,
  currency: string,
): { perLine: DocTaxComponent[][]; warnings: string[] } {
  const perLine: DocTaxComponent[][] = items.map(() => []);
  const warnings: string[] = [];
  for (const c of components) {
    let eligible = items.flatMap((item, i) =>
      c.rateId !== undefined && item.taxCodeId !== undefined && lookups.taxCodes[item.taxCodeId]?.rateIds.includes(c.rateId) ? [i] : [],
    );
    if (eligible.length === 0) eligible = items.flatMap((item, i) => (item.taxCodeId !== 'NON' && !item.amount.isZero() ? [i] : []));
    if (eligible.length === 0) eligible = items.flatMap((item, i) => (!item.amount.isZero() ? [i] : []));
    if (eligible.length === 0) {
      if (!c.amount.isZero()) warnings.push(`tax ${c.name ?? c.kind} has no line to sit on; kept on the document only`);
      continue;
    }
    const parts = allocateMoney(
      c.amount,
      eligible.map((i) => items[i]!.amount.abs()),
      currency,
    );
    eligible.forEach((lineIndex, k) => perLine[lineIndex]!.push({ ...c, amount: parts[k]! }));
  }
  return { perLine, warnings };
}

/** A line's rate when no document tax sits on it: the rates of its TaxCode (0 when unknown). */
export function taxCodeRate(taxCodeId: string | undefined, lookups: QboLookups): Decimal {
  const code = taxCodeId === undefined ? undefined : lookups.taxCodes[taxCodeId];
  let rate = dec(0);
  for (const id of code?.rateIds ?? []) {
    const r = parseOptionalAmount(lookups.taxRates[id]?.rate);
    if (r.ok && r.value) rate = rate.plus(r.value);
  }
  return rate;
}
