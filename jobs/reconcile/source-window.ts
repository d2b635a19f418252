import type { Logger } from 'pino';
import type { Stream } from '../../src/connector/types.js';
import { ConfigError } from '../../src/errors/index.js';
import type { Ledger } from '../../src/pipeline/ledger.js';
import type { LedgerDateIndex } from '../../src/pipeline/ledger-date-index.js';
import type { ConnectionHandle } from '../runtime.js';
import type { DriftReport } from './drift.js';
import { type DayWindow, windowText } from './invoice-date-window.js';
import { countingVendorCalls } from './repair-by-id.js';
import type { ReviewQueue } from '../../src/pipeline/review-queue.js';
import { aheadItem, heldItem } from './source-side.js';

const ENTITY = 'invoices';
/** Ids asked of the source at once (a page of a by-ids read where the vendor takes a list). */
const IDS_PER_READ = 100;

export interface SourceWindowHelpers {
  logger: Logger;
  connection(id: string): ConnectionHandle;
  ledger: Pick<Ledger, 'getMany' | 'markSourceDeleted'>;
  ledgerDates: Pick<LedgerDateIndex, 'ids'>;
  /** A newer version held for review before write is reported as `held`, not as stale (absent: none held). */
  review?: Pick<ReviewQueue, 'get'>;
}

export interface SourceWindowRead {
  /** Records the source returned. */
  checked: number;
  /** Requests made to the vendor. */
  vendorCalls: number;
  /**
   * Records the source holds at a newer version than the ledger, or at an older one than the ledger
   * claims (`ledger_ahead_of_source`): fixable, a repair writes them again.
   */
  stale: Array<{ erpId: string; version: string }>;
}

/** The connector's read of invoices by id; a connector without one cannot serve a deep history reconcile (said before anything is read). */
export function readInvoicesById(handle: ConnectionHandle): NonNullable<Stream['readByIds']> {
  const stream = handle.connector.streams[ENTITY];
  if (!stream.readByIds)
    throw new ConfigError(
      `connection ${handle.config.id}: its connector cannot read invoices by id, so --history --deep cannot read the source`,
    );
  return stream.readByIds.bind(stream);
}

/**
 * Deep mode of a history reconcile, for one window of invoice dates where billing and the ledger
 * disagree: the connection's ledger records dated there are read again from the source by id (the
 * stream's `readByIds`, as a repair reads them). A record the source deleted or no longer has is recorded
 * on its ledger entry (`sourceDeletedAt`) before the window is compared id by id, so its absence from
 * billing is then no drift; one the source holds at a newer version is `stale_version`, one the ledger
 * holds ahead of the source (a newer version, or a delete the source does not have) `ledger_ahead_of_source`. Only these
 * windows are read: the vendor's cost is the disagreeing windows' records, not the history.
 */
export async function readSourceWindow(
  rt: SourceWindowHelpers,
  conn: string,
  w: DayWindow,
  report: DriftReport,
  signal?: AbortSignal,
): Promise<SourceWindowRead> {
  const handle = rt.connection(conn);
  const readByIds = readInvoicesById(handle);
  const log = rt.logger.child({ connection: conn, reconcile: 'history-deep' });
  const counted = countingVendorCalls(handle.readContext({ logger: log, signal, until: new Date() }));
  const out: SourceWindowRead = { checked: 0, vendorCalls: 0, stale: [] };
  const where = `invoice dates ${windowText(w)}`;
  for await (const batch of rt.ledgerDates.ids(conn, ENTITY, w.from, w.to, IDS_PER_READ)) {
    const entries = await rt.ledger.getMany(conn, ENTITY, batch);
    const found = new Set<string>();
    for await (const page of readByIds(counted.ctx, batch)) {
      for (const r of page) {
        const i = batch.indexOf(r.id);
        const e = entries[i];
        if (i < 0 || !e || found.has(r.id)) continue;
        found.add(r.id);
        out.checked++;
        if (r.deleted) {
          if (!e.sourceDeletedAt) await rt.ledger.markSourceDeleted(conn, ENTITY, r.id, r.version);
        } else if (e.version > r.version || e.sourceDeletedAt) {
          const ahead = aheadItem(r, e);
          report.add({ ...ahead, erpId: r.id, detail: `${ahead.detail} (${where})` });
          out.stale.push({ erpId: r.id, version: r.version });
        } else if (e.version < r.version) {
          const waiting = await rt.review?.get(conn, ENTITY, r.id);
          if (waiting) {
            report.add({ ...heldItem(waiting, e), erpId: r.id });
            continue;
          }
          report.add({
            kind: 'stale_version',
            erpId: r.id,
            invoiceId: e.billingId,
            invoiceNumber: e.number,
            detail: `source at ${r.version}, billing/ledger at ${e.version} (${where})`,
          });
          out.stale.push({ erpId: r.id, version: r.version });
        }
      }
    }
    // Absent by id: the source no longer has it (recorded as a repair by id records it).
    for (const [i, id] of batch.entries()) {
      if (found.has(id) || !entries[i] || entries[i].sourceDeletedAt) continue;
      await rt.ledger.markSourceDeleted(conn, ENTITY, id, new Date().toISOString());
    }
  }
  out.vendorCalls = counted.calls();
  return out;
}
