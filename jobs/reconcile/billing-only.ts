import type { InvoiceRecord } from '../../src/billing/schemas/index.js';
import type { Ledger, LedgerEntry } from '../../src/pipeline/ledger.js';
import type { DriftItem } from './drift.js';

const ENTITY = 'invoices';

/**
 * A record of billing's invoice-date window that no walked ledger dates there, as its entry in the
 * group's ledgers tells (`owned`: the connection that holds the entry was walked):
 * - no entry: an orphan, unknown to the ledger;
 * - another connection's entry, not walked: theirs to check (`undefined`);
 * - an entry naming another billing invoice: a duplicate;
 * - its own entry, dated elsewhere by the ledger: an invoiceDate mismatch.
 */
export function classifyBillingOnly(
  erpId: string,
  d: Pick<InvoiceRecord, 'invoiceId' | 'invoiceNumber' | 'invoiceDate'>,
  e: Pick<LedgerEntry, 'billingId' | 'fields'> | undefined,
  owned: boolean,
  where: string,
): DriftItem | undefined {
  const at = { erpId, invoiceId: d.invoiceId, invoiceNumber: d.invoiceNumber };
  if (!e) return { kind: 'orphan_in_billing', ...at, detail: `unknown to the ledger (${where})` };
  if (!owned) return undefined;
  if (e.billingId !== d.invoiceId)
    return {
      kind: 'duplicate',
      ...at,
      detail: `a second billing invoice for ERP record ${erpId} (ours is ${e.billingId})`,
    };
  return {
    kind: 'field_mismatch',
    ...at,
    detail: `invoiceDate: ledger ${e.fields?.invoiceDate ?? '∅'} ≠ billing ${d.invoiceDate ?? '∅'}`,
  };
}

/** Billing's records of the window no walked ledger dates there, looked up in the group's ledgers (1,000 at a time). */
export async function billingOnlyItems(
  rt: { ledger: Pick<Ledger, 'getMany'> },
  connections: readonly string[],
  walked: readonly string[],
  extra: Array<[string, InvoiceRecord]>,
  where: string,
): Promise<DriftItem[]> {
  const items: DriftItem[] = [];
  for (let i = 0; i < extra.length; i += 1000) {
    const chunk = extra.slice(i, i + 1000);
    const ids = chunk.map(([id]) => id);
    const entries = await Promise.all(connections.map((c) => rt.ledger.getMany(c, ENTITY, ids)));
    for (const [j, [erpId, d]] of chunk.entries()) {
      const owner = entries.findIndex((es) => es[j] !== undefined);
      const e = owner < 0 ? undefined : entries[owner]![j];
      const item = classifyBillingOnly(erpId, d, e, owner >= 0 && walked.includes(connections[owner]!), where);
      if (item) items.push(item);
    }
  }
  return items;
}
