import type { InvoiceRecord } from '../../src/billing/schemas/index.js';
import type { LedgerEntry } from '../../src/pipeline/ledger.js';
import { compareFields } from './compare-fields.js';
import { DELIVERY_CLOCK_SKEW_MS } from '../../src/webhooks/delivery-time.js';
import type { DriftKind } from './drift.js';

/** The statuses the connectors wrote for a void before entries kept the lifecycle (Zoho, Xero, QuickBooks). */
const VOID_BEFORE_LIFECYCLE: ReadonlySet<string | undefined> = new Set(['void', 'VOIDED', 'voided']);

/** True when the source document the worker sent was void (its lifecycle; older entries: their status). */
export const isSourceVoid = (entry: Pick<LedgerEntry, 'sourceStatus' | 'sourceLifecycle'>): boolean =>
  entry.sourceLifecycle ? entry.sourceLifecycle === 'void' : VOID_BEFORE_LIFECYCLE.has(entry.sourceStatus);

/**
 * One billing invoice of this connection against its ledger entry: lifecycle both ways, then its version
 * and content.
 *
 * - A source delete billing still lists is reported in the window of the day the delete was seen
 *   (`deleteInWindow`), so adjacent windows never both report it; the ledger pass reports it there when
 *   billing's `updatedAt` falls on another day. Its content is then not judged (the record is gone).
 * - A ledger version in the future (beyond now + the clock skew a delivery may have) was never the
 *   source's: `ledger_ahead_of_source`, and nothing else is judged (`futureIsDrift`: off in deep mode,
 *   where the source pass reports it against the source's own version, in the window of that version).
 * - Version: when billing echoes the source version it holds (`metaData.sourceVersion`), an older one is
 *   `stale_version` whatever differs (even nothing the listing shows); otherwise any field that differs
 *   from what was sent is `field_mismatch`. Either way the detail names every differing field.
 */
export function compareRecord(
  d: InvoiceRecord,
  entry: LedgerEntry,
  deleteInWindow: boolean,
  { futureIsDrift = true, now = Date.now() }: { futureIsDrift?: boolean; now?: number } = {},
): Array<{ kind: DriftKind; detail: string }> {
  const out: Array<{ kind: DriftKind; detail: string }> = [];
  if (futureIsDrift && Date.parse(entry.version) > now + DELIVERY_CLOCK_SKEW_MS) {
    const deleted = entry.sourceDeletedAt ? `, marked deleted at ${entry.sourceDeletedAt}` : '';
    out.push({ kind: 'ledger_ahead_of_source', detail: `ledger version ${entry.version} is in the future${deleted}` });
    return out;
  }
  if (entry.sourceDeletedAt) {
    if (deleteInWindow)
      out.push({
        kind: 'delete_not_reflected',
        detail: `deleted in the source at ${entry.sourceDeletedAt}; billing lifecycle ${d.lifecycleStatus}`,
      });
    return out;
  }
  const sourceVoid = isSourceVoid(entry);
  if (sourceVoid && d.lifecycleStatus !== 'VOIDED') {
    out.push({ kind: 'void_not_reflected', detail: `void in the source; billing lifecycle ${d.lifecycleStatus}` });
  }
  // The other direction: no upsert changes a lifecycle, so no sync can undo a void made in billing; a
  // person must decide (un-void in billing, or void in the source).
  if (d.lifecycleStatus === 'VOIDED' && !sourceVoid) {
    out.push({
      kind: 'void_in_billing_only',
      detail: `voided in billing; the source holds it as ${entry.sourceStatus ?? 'live'}`,
    });
  }
  const diffs = entry.fields ? compareFields(entry.fields, d) : [];
  // metaData travels with the invoice; a service that echoes it tells us which version it holds.
  const held = (d as { metaData?: { sourceVersion?: unknown } | null }).metaData?.sourceVersion;
  if (typeof held === 'string' && held < entry.version) {
    out.push({
      kind: 'stale_version',
      detail: `billing holds version ${held}, ledger ${entry.version}${diffs.length ? `: ${diffs.join('; ')}` : ''}`,
    });
  } else if (diffs.length) {
    out.push({ kind: 'field_mismatch', detail: diffs.join('; ') });
  }
  return out;
}
