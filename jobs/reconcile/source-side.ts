import type { DriftItem } from './drift.js';
import type { ReconcileHelpers } from './run-reconcile.js';

export interface SourceSide {
  checked: number;
  items: Array<DriftItem & { version: string }>;
}

/**
 * Deep mode: read the source itself. Every invoice the source changed since the window began is
 * compared with the ledger (never synced → missing; ledger older → stale). Where the connector can list
 * every id (vendors with hard deletes and no delete feed), ids the ledger holds but the source no longer
 * has are deletes: they are recorded in the ledger (`sourceDeletedAt`) for the billing and ledger passes,
which run after this one. Source ids are kept in Redis, not in memory.
 */
export async function readSourceSide(rt: ReconcileHelpers, conn: string, fromDate: string, signal?: AbortSignal): Promise<SourceSide> {
  const handle = rt.connection(conn);
  const stream = handle.connector.streams.invoices;
  const log = rt.logger.child({ connection: conn, reconcile: 'deep' });
  const ctx = handle.readContext({ logger: log, signal, until: new Date() });
  // A delete found in the source is a fact: it is recorded on the ledger entry as it is now (an upsert
  // committing meanwhile keeps its content); the billing and ledger passes decide whether billing reflects it.
  const markDeleted = (erpId: string, at: string) => rt.ledger.markSourceDeleted(conn, 'invoices', erpId, at);
  const out: SourceSide = { checked: 0, items: [] };
  // A day of margin before the window: source clocks and billing's date part may sit in other zones.
  const since = new Date(Date.parse(`${fromDate}T00:00:00Z`) - 86_400_000).toISOString();
  for await (const page of stream.read(ctx, { ...stream.initialState(undefined), cursor: since })) {
    const ledger = await rt.ledger.getMany(
      conn,
      'invoices',
      page.records.map((r) => r.id),
    );
    for (const [i, r] of page.records.entries()) {
      out.checked++;
      const e = ledger[i];
      if (r.deleted) {
        if (e && !e.sourceDeletedAt) await markDeleted(r.id, r.version);
        continue;
      }
      // A draft is not a receivable (syncDrafts: false): billing is not expected to hold it.
      if (r.draft && !handle.config.syncDrafts && !e) continue;
      if (!e) {
        const q = await rt.quarantine.get(conn, 'invoices', r.id);
        if (q) continue; // reported by the quarantine (dlq list), with its reason
        out.items.push({ kind: 'missing_in_billing', erpId: r.id, detail: `source version ${r.version} never synced`, version: r.version });
      } else if (e.version < r.version) {
        out.items.push({
          kind: 'stale_version',
          erpId: r.id,
          invoiceId: e.billingId,
          invoiceNumber: e.number,
          detail: `source at ${r.version}, billing/ledger at ${e.version}`,
          version: r.version,
        });
      }
    }
  }
  if (stream.listIds) {
    const sourceIds = rt.reconcileState.scratchSet(conn, `source-ids:${Date.now()}`);
    try {
      for await (const ids of stream.listIds(ctx)) await sourceIds.add(ids);
      await sourceIds.expireIn(3_600_000);
      for await (const batch of rt.ledger.scan(conn, 'invoices', 1000)) {
        const live = batch.filter(([, e]) => !e.sourceDeletedAt);
        if (!live.length) continue;
        const present = await sourceIds.has(live.map(([id]) => id));
        for (const [i, [id]] of live.entries()) if (!present[i]) await markDeleted(id, new Date().toISOString());
      }
    } finally {
      await sourceIds.drop();
    }
  }
  return out;
}
