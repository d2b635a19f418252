import type { DriftItem } from './drift.js';
import { dateInZone, type ReconcileHelpers } from './run-reconcile.js';

export interface SourceSide {
  checked: number;
  items: Array<DriftItem & { version: string }>;
}

/** How far the source read reaches past each end of the window: any time zone's day lies inside it. */
export const SOURCE_READ_MARGIN_MS = 86_400_000;

/**
 * Deep mode: read the source itself, for the window's days only. Every invoice the source changed on
 * those days (its version's date, in reconcile.timeZone) is compared with the ledger (never synced →
 * missing; ledger older → stale). The read reaches a day past either end of the window (source clocks
 * and the configured zone differ), but a change is judged only in the window of its own date, so
 * adjacent windows report it once. Where the connector can list every id (vendors with hard deletes and
 * no delete feed), ids the ledger holds but the source no longer has are deletes: they are recorded in
 * the ledger (`sourceDeletedAt`) for the billing and ledger passes, which run after this one and count
 * each in the window of the day it was found. Source ids are kept in Redis, not in memory.
 */
export async function readSourceSide(
  rt: ReconcileHelpers,
  conn: string,
  window: { from: string; to: string },
  signal?: AbortSignal,
): Promise<SourceSide> {
  const handle = rt.connection(conn);
  const stream = handle.connector.streams.invoices;
  const log = rt.logger.child({ connection: conn, reconcile: 'deep' });
  const tz = rt.config.reconcile.timeZone;
  const since = new Date(Date.parse(`${window.from}T00:00:00Z`) - SOURCE_READ_MARGIN_MS).toISOString();
  const until = new Date(
    Math.min(Date.now(), Date.parse(`${window.to}T00:00:00Z`) + 86_400_000 + SOURCE_READ_MARGIN_MS),
  );
  const inWindow = (version: string) => {
    const day = dateInZone(Date.parse(version), tz);
    return day >= window.from && day <= window.to;
  };
  const ctx = handle.readContext({ logger: log, signal, until });
  // A delete found in the source is a fact: it is recorded on the ledger entry as it is now (an upsert
  // committing meanwhile keeps its content); the billing and ledger passes decide whether billing reflects it.
  const markDeleted = (erpId: string, at: string) => rt.ledger.markSourceDeleted(conn, 'invoices', erpId, at);
  const out: SourceSide = { checked: 0, items: [] };
  // A window that has not begun yet has no source changes to read.
  const pages =
    Date.parse(since) < until.getTime() ? stream.read(ctx, { ...stream.initialState(undefined), cursor: since }) : [];
  for await (const page of pages) {
    const ledger = await rt.ledger.getMany(
      conn,
      'invoices',
      page.records.map((r) => r.id),
    );
    for (const [i, r] of page.records.entries()) {
      const e = ledger[i];
      if (r.deleted) {
        if (e && !e.sourceDeletedAt) await markDeleted(r.id, r.version);
        continue;
      }
      if (!inWindow(r.version)) continue; // read for the margin; judged in the window of its own date
      // A draft is not a receivable (syncDrafts: false): billing is not expected to hold it.
      if (r.draft && !handle.config.syncDrafts && !e) continue;
      out.checked++;
      if (!e) {
        const q = await rt.quarantine.get(conn, 'invoices', r.id);
        if (q) continue; // reported by the quarantine (dlq list), with its reason
        out.items.push({
          kind: 'missing_in_billing',
          erpId: r.id,
          detail: `source version ${r.version} never synced`,
          version: r.version,
        });
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
