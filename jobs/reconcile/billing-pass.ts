import { updatedBetween } from '../../src/billing/dates.js';
import type { InvoiceRecord } from '../../src/billing/schemas/index.js';
import { invoiceIdFor } from '../../src/mapping/index.js';
import type { LedgerEntry } from '../../src/pipeline/ledger.js';
import { compareRecord } from './compare-record.js';
import type { DriftKind } from './drift.js';
import type { ReconcilePass } from './reconcile-pass.js';

const PAGE = 500;

/**
 * Billing side: every page of the UPDATED_AT window for this connection's origin source, each invoice
 * judged against the ledger; the ids seen are kept (`pass.seen`) for the ledger pass.
 */
export async function billingPass(pass: ReconcilePass): Promise<void> {
  const { billing, signal } = pass;
  for (let pageNumber = 1; ;) {
    await billing.budget.take(signal);
    const page = await billing.client.listInvoices(
      {
        ...updatedBetween(pass.req.from, pass.req.to),
        originSource: [pass.originSource],
        pageSize: PAGE,
        pageNumber,
      },
      { signal },
    );
    await judgeBillingPage(pass, page.docs);
    if (!page.hasNext || page.nextPageNumber === null) break;
    pageNumber = page.nextPageNumber;
  }
  await pass.seen.expireIn(3_600_000);
}

async function judgeBillingPage(pass: ReconcilePass, docs: InvoiceRecord[]): Promise<void> {
  const withErp = docs.filter((d) => d.erpId);
  const ledger = await pass.rt.ledger.getMany(
    pass.conn,
    'invoices',
    withErp.map((d) => d.erpId!),
  );
  const entryOf = new Map(withErp.map((d, i) => [d, ledger[i]]));
  const mine: string[] = [];
  for (const d of docs) {
    pass.report.checked.billing++;
    if (judgeBillingDoc(pass, d, entryOf.get(d)) === 'ours') mine.push(d.erpId!);
  }
  await pass.seen.add(mine);
  await pass.flushVerdicts();
}

/** One billing invoice against its ledger entry: its findings reported, its verdict recorded when it is ours. */
function judgeBillingDoc(pass: ReconcilePass, d: InvoiceRecord, entry: LedgerEntry | undefined): Classified | 'none' {
  if (!d.erpId) {
    pass.report.add({
      kind: 'orphan_in_billing',
      invoiceId: d.invoiceId,
      invoiceNumber: d.invoiceNumber,
      detail: 'no erpId: not written by this connection',
    });
    return 'none';
  }
  const kind = classifyBilling(d, entry, pass.conn);
  const items =
    kind === 'ours'
      ? compareRecord(
          d,
          entry!,
          entry!.sourceDeletedAt !== undefined && pass.inWindow(Date.parse(entry!.sourceDeletedAt)),
          { futureIsDrift: !pass.req.deep },
        )
      : [kind];
  for (const item of items) {
    pass.report.add({ ...item, erpId: d.erpId, invoiceId: d.invoiceId, invoiceNumber: d.invoiceNumber });
    if (item.kind === 'field_mismatch' || item.kind === 'stale_version' || item.kind === 'ledger_ahead_of_source')
      pass.toRepair.push({ erpId: d.erpId, version: entry!.version });
  }
  if (kind === 'ours')
    pass.verdict(
      d.erpId,
      items.length ? items.map((i) => i.kind).join(',') : 'ok',
      items.map((i) => i.detail).join('; ') || undefined,
    );
  return kind;
}

type Classified = 'ours' | { kind: DriftKind; detail: string };

/** A billing invoice with an ERP id: this connection's (then compared), an orphan, or a duplicate. */
export function classifyBilling(d: InvoiceRecord, entry: LedgerEntry | undefined, conn: string): Classified {
  if (!entry) {
    const ours = d.invoiceId === invoiceIdFor(conn, d.erpId!);
    return {
      kind: 'orphan_in_billing',
      detail: ours ? 'id of this connection, but never written by it (ledger has no entry)' : 'unknown to the ledger',
    };
  }
  if (d.invoiceId !== entry.billingId) {
    return {
      kind: 'duplicate',
      detail: `a second billing invoice for ERP record ${d.erpId} (ours is ${entry.billingId})`,
    };
  }
  return 'ours';
}
