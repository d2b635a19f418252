import {
  allocateMoney,
  checkTaxSum,
  formatMoney,
  mapFail,
  parseAmountOrZero,
  sumMoney,
  ZERO,
  type Decimal,
} from '../../../src/mapping/index.js';
import type { Steps } from '../../../src/mapping/steps.js';
import type { ZohoDocument, ZohoTaxLine } from '../schemas.js';
import type { ZohoLookups, ZohoTaxDefinition } from '../streams/lookups.js';
import { within } from './lines.js';
import type { TaxCell } from './tax.js';

/**
 * Zoho lines carry no tax amounts (https://www.zoho.com/books/api/v3/invoices/: `line_items[]` has
 * tax_id and tax_percentage, `taxes[]` one `{tax_name, tax_amount}` per component), so the per-line
 * amounts recomputed in tax.ts are made to add up exactly to what Zoho printed: per component when
 * every `taxes[]` entry can be matched to a tax of the organisation, else to `tax_total` as a whole.
 * Within one minor unit per cell the remaining units are spread over the cells (largest remainder,
 * with a warning); a larger gap is a real inconsistency. The document Tax then equals `taxes[]` and
 * `tax_total` to the paisa.
 */

/** A taxes[] entry → the plain tax it reports: by tax_id, else by the org's own name (exact, or without a "(9%)" suffix). */
function resolveTaxLine(entry: ZohoTaxLine, lookups: ZohoLookups): ZohoTaxDefinition | undefined {
  const byId = entry.tax_id ? lookups.taxes[entry.tax_id] : undefined;
  if (byId && !byId.isGroup) return byId;
  const plain = Object.values(lookups.taxes).filter((t) => !t.isGroup);
  const name = entry.tax_name?.trim() ?? '';
  for (const candidate of [name, name.replace(/\s*\(\s*[\d.]+\s*%\s*\)\s*$/, '')]) {
    const hits = plain.filter((t) => t.name.trim() === candidate);
    if (candidate !== '' && hits.length === 1) return hits[0];
  }
  return undefined;
}

interface Group {
  label: string;
  target: Decimal;
  cells: TaxCell[];
}

/** The cells grouped with the figure each group must add up to. */
function groupsOf(
  s: Steps,
  cells: TaxCell[],
  doc: ZohoDocument,
  taxTotal: Decimal,
  lookups: ZohoLookups,
  currency: string,
): Group[] {
  const entries = (doc.taxes ?? []).map((entry, i) => ({
    entry,
    amount: s.take(parseAmountOrZero(entry.tax_amount, `taxes.${i}.tax_amount`)),
  }));
  if (entries.length > 0)
    s.check(checkTaxSum({ components: entries.map((e) => e.amount), taxTotal, currency, toleranceMinorUnits: 0 }));
  const charged = entries.filter((e) => !e.amount.isZero());
  const resolved = charged.map((e) => ({ ...e, tax: resolveTaxLine(e.entry, lookups) }));
  if (charged.length === 0 || !resolved.every((r) => r.tax)) {
    if (charged.length > 0)
      s.warn('taxes[] names do not match the tax settings; line taxes reconciled to tax_total as a whole');
    return [{ label: 'tax_total', target: taxTotal, cells }];
  }
  const groups = new Map<string, Group>();
  const groupOf = (tax: ZohoTaxDefinition): Group => {
    let g = groups.get(tax.id);
    if (!g) groups.set(tax.id, (g = { label: `taxes[] ${tax.name}`, target: ZERO, cells: [] }));
    return g;
  };
  for (const r of resolved) {
    const g = groupOf(r.tax!);
    g.target = g.target.plus(r.amount);
  }
  for (const cell of cells) groupOf(cell.tax).cells.push(cell);
  return [...groups.values()];
}

export function reconcileTaxes(
  s: Steps,
  cells: TaxCell[],
  doc: ZohoDocument,
  taxTotal: Decimal,
  lookups: ZohoLookups,
  currency: string,
): void {
  for (const { label, target, cells: group } of groupsOf(s, cells, doc, taxTotal, lookups, currency)) {
    const sum = sumMoney(group.map((c) => c.amount));
    const diff = target.minus(sum);
    if (diff.isZero()) continue;
    // One minor unit per cell may be rounding; a figure with no cell to carry it never is.
    if (!within(target, sum, currency, group.length)) {
      const rates = [...new Set(group.map((c) => `${c.rate.toFixed()}%`))].join(', ') || 'no line';
      s.fail(
        mapFail(
          'AMOUNTS_INCONSISTENT',
          `${label} is ${formatMoney(target, currency)} but the lines' tax (${rates}) comes to ${formatMoney(sum, currency)} ${currency}`,
          { field: 'taxes' },
        ),
      );
    }
    if (group.every((c) => !c.amount.isNegative()) && sum.gt(0)) {
      const parts = allocateMoney(
        target,
        group.map((c) => c.amount),
        currency,
      );
      group.forEach((c, i) => (c.amount = parts[i]!));
    } else {
      const largest = group.reduce((a, b) => (b.amount.abs().gt(a.amount.abs()) ? b : a));
      largest.amount = largest.amount.plus(diff);
    }
    s.warn(`${label}: line taxes adjusted by ${formatMoney(diff, currency)} to match Zoho's figure`);
  }
}
