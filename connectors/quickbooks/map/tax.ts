import {
  allocateMoney,
  type Decimal,
  dec,
  findIndianState,
  type IndianState,
  parseAmount,
  parseOptionalAmount,
  stateOfGstin,
  type TaxComponent,
  type TaxKind,
} from '../../../src/mapping/index.js';
import type { Steps } from '../../../src/mapping/steps.js';
import type { QboAddress, QboCustomer, QboTaxLine } from '../schemas.js';
import type { QboLookups } from '../streams/lookups.js';
import type { ItemLine } from './item-line.js';
import { isIndia } from './party.js';

/**
 * QBO tax lives in `TxnTaxDetail.TaxLine[]`, not on lines. Each TaxLine is
 * `{Amount, TaxLineDetail: {TaxRateRef, TaxPercent, NetAmountTaxable}}`; the TaxRate it refers to is
 * resolved through `SELECT * FROM TaxRate` (streams/lookups.ts). Fields: Finance.xsd in
 * https://github.com/intuit/QuickBooks-V3-Java-SDK (ipp-v3-java-data/src/main/xsd).
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

export function classifyTaxLines(
  s: Steps,
  input: { taxLines: readonly QboTaxLine[]; lookups: QboLookups; indian: boolean; intraState: boolean | undefined },
): DocTaxComponent[] {
  const { lookups } = input;
  const components: Array<Omit<DocTaxComponent, 'kind'> & { kind: TaxKind | 'unknown' }> = [];
  for (const [i, line] of input.taxLines.entries()) {
    const field = `TxnTaxDetail.TaxLine.${i}`;
    const amount = s.take(parseAmount(line.Amount, `${field}.Amount`));
    const d = line.TaxLineDetail ?? {};
    const rateId = d.TaxRateRef?.value;
    const known = rateId === undefined ? undefined : lookups.taxRates[rateId];
    const rate = rateOf(s, amount, d, known?.rate, field);
    const name =
      known?.name ?? d.TaxRateRef?.name ?? (rateId === undefined ? `Tax line ${i + 1}` : `TaxRate ${rateId}`);
    const kind = kindFromName(known?.name ?? d.TaxRateRef?.name) ?? kindFromName(known?.agency) ?? 'unknown';
    components.push({ kind, amount, rate, name, ...(rateId === undefined ? {} : { rateId }) });
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
          s.warn(`intra-state supply with an unpaired ${rate} % tax line; sent as "${group[group.length - 1]!.name}"`);
        }
      }
    } else {
      for (const c of unknown) c.kind = 'other';
      s.warn(
        'place of supply unknown: tax lines whose rate names do not say CGST/SGST/IGST are sent under their own names',
      );
    }
  }
  if (input.intraState === true && components.some((c) => c.kind === 'igst' && !c.amount.isZero())) {
    s.warn('IGST charged on what the addresses say is an intra-state supply');
  }
  if (
    input.intraState === false &&
    components.some((c) => (c.kind === 'cgst' || c.kind === 'sgst') && !c.amount.isZero())
  ) {
    s.warn('CGST/SGST charged on what the addresses say is an inter-state supply');
  }
  return components as DocTaxComponent[];
}

function rateOf(
  s: Steps,
  amount: Decimal,
  d: { TaxPercent?: unknown; NetAmountTaxable?: unknown },
  lookupRate: string | undefined,
  field: string,
): Decimal {
  const percent = s.take(parseOptionalAmount(d.TaxPercent, `${field}.TaxLineDetail.TaxPercent`));
  if (percent !== undefined) return percent;
  const fromLookup = parseOptionalAmount(lookupRate, `${field} TaxRate.RateValue`);
  if (fromLookup.ok && fromLookup.value !== undefined) return fromLookup.value;
  const net = parseOptionalAmount(d.NetAmountTaxable, `${field}.TaxLineDetail.NetAmountTaxable`);
  if (net.ok && net.value !== undefined && !net.value.isZero())
    return amount.times(100).div(net.value).toDecimalPlaces(4);
  s.warn(`${field}: no TaxPercent, rate or taxable amount; rate sent as 0`);
  return dec(0);
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
      c.rateId !== undefined &&
      item.taxCodeId !== undefined &&
      lookups.taxCodes[item.taxCodeId]?.rateIds.includes(c.rateId)
        ? [i]
        : [],
    );
    if (eligible.length === 0)
      eligible = items.flatMap((item, i) => (item.taxCodeId !== 'NON' && !item.amount.isZero() ? [i] : []));
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

/**
 * QBO v3 has no place-of-supply field (README.md, "Limitations"), so it is derived, in this order: the
 * document's ShipAddr, its BillAddr, the customer's ShipAddr, BillAddr, then the state in the customer's
 * GSTIN (its first two digits). Addresses outside India do not count. Undefined when nothing resolves to
 * an Indian state (exports, or no address at all).
 */
export function placeOfSupplyOf(
  doc: { ShipAddr?: QboAddress; BillAddr?: QboAddress },
  customer?: QboCustomer,
): IndianState | undefined {
  const addresses = [doc.ShipAddr, doc.BillAddr, customer?.ShipAddr, customer?.BillAddr];
  for (const a of addresses) {
    if (!a?.CountrySubDivisionCode || !isIndia(a.Country)) continue;
    const state = findIndianState(a.CountrySubDivisionCode);
    if (state) return state;
  }
  return customer?.GSTIN ? stateOfGstin(customer.GSTIN) : undefined;
}

/** True when the QBO company is in India (CompanyInfo.Country "IN" or its address says India). */
export function isIndianCompany(lookups: QboLookups): boolean {
  return lookups.companyCountry !== undefined ? isIndia(lookups.companyCountry) : lookups.homeCurrency === 'INR';
}

/**
 * Whether a supply is intra-state (CGST+SGST) rather than inter-state (IGST): same state on both sides,
 * and not to an SEZ or overseas (GSTRegistrationType SEZ / OVERSEAS are inter-state whatever the states
 * say). Undefined when either side is unknown.
 */
export function isIntraStateSupply(
  lookups: QboLookups,
  place: IndianState | undefined,
  customer?: QboCustomer,
): boolean | undefined {
  const type = customer?.GSTRegistrationType?.toUpperCase();
  if (type === 'SEZ' || type === 'OVERSEAS') return false;
  const supplier = findIndianState(lookups.companyState);
  if (!supplier || !place) return undefined;
  return supplier.gstCode === place.gstCode;
}
