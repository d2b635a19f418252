import type { Runtime } from '../../jobs/runtime.js';
import type { BillingEmulator } from '../../sandbox/billing/billing-emulator.js';
import type { StoredInvoice } from '../../sandbox/billing/billing-store.js';
import type { JournalEntry } from '../../sandbox/kit/journal.js';
import type { ZohoEmulator } from '../../sandbox/zoho-books/index.js';
import { UPSERT_PATH } from './harness-config.js';
import {
  billingInvoicesOf,
  compareWithSource,
  expectedInvoicesOf,
  type SyncedConnection,
} from './source-comparison.js';

/** What a test reads off billing and a connection's source, to say what the pipeline did. */
export function billingInspection(b: BillingEmulator, rt: Runtime, first: SyncedConnection) {
  return {
    /** Billing's request journal (non-admin requests), optionally one path. */
    journal(path?: string): JournalEntry[] {
      return b.journal.list({ path });
    },
    /** Successful invoice upsert POSTs billing has answered so far. */
    upsertPosts(): number {
      return b.journal.list({ path: UPSERT_PATH }).filter((e) => e.status === 200).length;
    },
    /** The first connection's invoices in billing, by ERP id; two for one ERP id throws. */
    billingInvoices: (connection: SyncedConnection = first) => billingInvoicesOf(connection),
    /** The first connection's source mapped afresh (see source-comparison.ts). */
    expectedInvoices: (connection: SyncedConnection = first) => expectedInvoicesOf(connection),
    /** Billing against the first connection's source, record for record (see source-comparison.ts). */
    compareWithSource: (opts: { except?: Set<string> } = {}, connection: SyncedConnection = first) =>
      compareWithSource(connection, opts),
    /** Every upsert job still in Redis (the last 1,000 completed ones, and the failed ones). */
    upsertJobs(
      states: Array<'completed' | 'failed' | 'wait' | 'active' | 'delayed' | 'prioritized'> = ['completed', 'failed'],
    ) {
      return rt.queues.upsert.getJobs(states, 0, -1);
    },
    /** A company's invoices in billing, straight from the emulator's store. */
    invoicesOf(company: string): StoredInvoice[] {
      return b.store.company(company).invoices;
    },
    /** A company's customers' buyer ids in billing. */
    buyersOf(company: string): string[] {
      return b.store.company(company).customers.map((c) => c.details.buyerId);
    },
  };
}

/**
 * Voids in the company's billing the invoices a Zoho connection's source holds as void (what a person
 * does; no sync can). Returns how many; a refused void throws.
 */
export async function mirrorZohoVoids(
  rt: Runtime,
  b: BillingEmulator,
  zoho: ZohoEmulator,
  c: { connection: string; company: string },
): Promise<number> {
  let n = 0;
  for (const inv of zoho.store.invoices().filter((i) => i.status === 'void')) {
    const e = await rt.ledger.get(c.connection, 'invoices', inv.invoice_id);
    if (!e) continue;
    const res = await fetch(`${b.url}/__admin/invoices/${encodeURIComponent(e.billingId)}/void?company=${c.company}`, {
      method: 'POST',
    });
    if (!res.ok) throw new Error(`void ${e.billingId} in ${c.company}: ${res.status} ${await res.text()}`);
    n++;
  }
  return n;
}
