import { Decimal } from 'decimal.js';
import type { InvoiceRecord } from '../../src/billing/schemas/index.js';

const AMOUNTS = ['invoiceSubtotal', 'invoiceTotal', 'invoicePaidAmount', 'invoiceAdjustedAmount', 'exchangeRate', 'invoiceTax'] as const;
const TEXTS = ['invoiceNumber', 'invoiceDate', 'invoiceDueDate', 'invoiceCurrency'] as const;

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
 * Differences between what the ledger says was written and what billing holds, compared exactly
 * (decimal, not float). Returns "field: ledger X ≠ billing Y" strings.
 */
export function compareFields(expected: Record<string, string | null>, record: InvoiceRecord): string[] {
  const out: string[] = [];
  for (const f of TEXTS) {
    if (!(f in expected)) continue;
    const e = expected[f] ?? null;
    const b = (billingValue(record, f) as string | null) ?? null;
    if (e !== b) out.push(`${f}: ledger ${e ?? '∅'} ≠ billing ${b ?? '∅'}`);
  }
  for (const f of AMOUNTS) {
    if (!(f in expected)) continue;
    const e = expected[f];
    const b = billingValue(record, f);
    if (f === 'exchangeRate' && (e === null || e === undefined) && (b === null || b === undefined || b === 1)) continue;
    if (!sameAmount(e, b)) out.push(`${f}: ledger ${e ?? '∅'} ≠ billing ${b ?? '∅'}`);
  }
  return out;
}
