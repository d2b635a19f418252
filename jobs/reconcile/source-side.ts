import type { ReadContext } from '../../src/connector/types.js';
import type { Runtime } from '../runtime.js';
import type { DriftItem } from './drift.js';

export interface SourceSide {
  checked: number;
  items: Array<DriftItem & { version: string }>;
}

/** A delete found in the source is a fact: record it in the ledger; the billing and ledger passes decide
 * whether billing reflects it. */
async function markDeleted(rt: Runtime, conn: string, erpId: string, at: string): Promise<void> {
  const e = await rt.ledger.get(conn, 'invoices', erpId);
  if (e && !e.sourceDeletedAt) await rt.redis.hset(rt.keys.ledger(conn, 'invoices'), erpId, JSON.stringify({ ...e, sourceDeletedAt: at }));
}

/**
 * Deep mode: read the source itself. Every invoice the source changed since the window began is
 * compared with the ledger (never synced → missing; ledger older → stale). Where the connector can list
 * every id (vendors with hard deletes and no delete feed), ids the ledger holds but the source no longer
 * has are deletes: they are recorded in the ledger (`sourceDeletedAt`) for the billing and ledger passes,
which run after this one. Source ids are kept in Redis, not in memory.
 */
export async function readSourceSide(rt: Runtime, conn: string, fromDate: string, signal?: AbortSignal): Promise<SourceSide> {
  const { config: c, connector } = rt.connection(conn);
  const stream = connector.streams.invoices;
  const log = rt.logger.child({ connection: conn, reconcile: 'deep' });
  const ctx: ReadContext = { connectionId: conn, http: rt.vendorClient(conn), logger: log, signal, until: new Date(), settings: c.settings };
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
        if (e && !e.sourceDeletedAt) await markDeleted(rt, conn, r.id, r.version);
        continue;
      }
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
    const key = `${rt.keys.reconcile(conn)}:source-ids:${Date.now()}`;
    try {
      for await (const ids of stream.listIds(ctx)) if (ids.length) await rt.redis.sadd(key, ...ids);
      await rt.redis.pexpire(key, 3_600_000);
      for await (const batch of rt.ledger.scan(conn, 'invoices', 1000)) {
        const live = batch.filter(([, e]) => !e.sourceDeletedAt);
        if (!live.length) continue;
        const present = await rt.redis.smismember(key, ...live.map(([id]) => id));
        for (const [i, [id]] of live.entries()) if (present[i] === 0) await markDeleted(rt, conn, id, new Date().toISOString());
      }
    } finally {
      await rt.redis.del(key);
    }
  }
  return out;
}
