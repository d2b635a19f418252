import { Decimal } from 'decimal.js';
import type { InvoiceRecord } from '../../src/billing/schemas/index.js';
import { fieldDigest } from './field-digest.js';

const AMOUNTS = new Set([
  'invoiceSubtotal',
  'invoiceTotal',
  'invoicePaidAmount',
  'invoiceAdjustedAmount',
  'exchangeRate',
  'invoiceTax',
]);
const DIGEST = 'digest:';

function billingValue(record: InvoiceRecord, field: string): unknown {
  if (field === 'invoiceTax') return (record.invoiceTax as { total?: unknown } | null | undefined)?.total ?? null;
  return (record as Record<string, unknown>)[field] ?? null;
}

function sameAmount(a: unknown, b: unknown): boolean {
  const na = a === null || a === undefined || a === '';
  const nb = b === null || b === undefined || b === '';
  if (na || nb) {
    // An absent tax or rate equals zero tax / the base currency's implicit 1 only when the other is 0 or absent.
    if (na && nb) return true;
    const v = new Decimal(String(na ? b : a));
    return v.isZero();
  }
  return new Decimal(String(a)).equals(new Decimal(String(b)));
}

/**
 * Differences between what the ledger says was written (every listed field that was sent, see
 * jobs/pull/reconcile-fields.ts) and what billing holds: amounts compared exactly (decimal, not float), texts
 * as strings, objects and arrays by digest. A field the listing does not return at all is not compared
 * (a service that leaves out an undocumented field holds nothing we can judge). Returns one
 * "field: ledger X ≠ billing Y" string per differing field (for a digest, "field: differs from what was sent").
 */
export function compareFields(expected: Record<string, string | null>, record: InvoiceRecord): string[] {
  const out: string[] = [];
  const listed = record as Record<string, unknown>;
  for (const [key, e] of Object.entries(expected)) {
    if (key.startsWith(DIGEST)) {
      const f = key.slice(DIGEST.length);
      if (!(f in listed)) continue;
      const b = listed[f];
      if (b === null || b === undefined || fieldDigest(b) !== e) out.push(`${f}: differs from what was sent`);
      continue;
    }
    if (AMOUNTS.has(key)) {
      const b = billingValue(record, key);
      if (key === 'exchangeRate' && (e === null || e === undefined) && (b === null || b === undefined || b === 1))
        continue;
      if (!sameAmount(e, b)) out.push(`${key}: ledger ${e ?? '∅'} ≠ billing ${b ?? '∅'}`);
      continue;
    }
    if (!(key in listed)) continue;
    const b = billingValue(record, key);
    const bs = b === null ? null : String(b);
    if ((e ?? null) !== bs) out.push(`${key}: ledger ${e ?? '∅'} ≠ billing ${bs ?? '∅'}`);
  }
  return out;
}
