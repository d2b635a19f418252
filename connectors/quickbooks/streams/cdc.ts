import type { RawRow } from '../../../src/connector/define-stream.js';
import type { ReadContext } from '../../../src/connector/types.js';
import { parseTimestamp } from '../../../src/mapping/index.js';
import { QboCdcRecord, QboCdcResponse, type QboDeletedStub } from '../schemas.js';
import { timestampLiteral } from './query.js';

/**
 * Deletes from QBO's change-data-capture endpoint (this connector only: the one vendor with a delete
 * feed that the query read cannot see):
 *   GET /v3/company/{realmId}/cdc?entities=Invoice,CreditMemo&changedSince=<ISO>
 * https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/change-data-capture
 *
 * CDC returns full payloads of changed records and `{"status":"Deleted","Id","MetaData"}` stubs; a deleted
 * invoice or credit memo is visible nowhere else (queries no longer return it). Limits (same page): at
 * most 30 days back, at most 1,000 objects per response, shared by all entities asked for. Only the stubs
 * are used here (the query read covers changes).
 *
 * Saturation (1,000 objects returned, or an entity's totalCount above what came back):
 * 1. several entities → ask again one entity per call (split the entities);
 * 2. one entity → walk the window forward: ask again from the latest LastUpdatedTime in the response
 *    (CDC has no upper bound, so the window is split by moving its start). This relies on CDC returning the
 *    oldest changes first, as our emulator does — Intuit does not say which 1,000 it returns (README.md,
 *    "Limitations"). If 1,000 changes share one second the walk cannot move; the rest is left to
 *    reconciliation's id diff.
 * Stubs that repeat across calls are yielded once.
 */
export const CDC_MAX_OBJECTS = 1000;
export const CDC_MAX_DAYS = 30;
/** Kept off the 30-day edge: our clock and Intuit's may differ a little. */
const EDGE_MARGIN_MS = 60 * 60 * 1000;

/** changedSince for a read: the cursor, but never older than the CDC window allows. */
export function cdcSince(cursor: string | null, until: Date): { since: Date; clipped: boolean } {
  const oldest = until.getTime() - CDC_MAX_DAYS * 86_400_000 + EDGE_MARGIN_MS;
  const from = cursor === null ? Number.NEGATIVE_INFINITY : Date.parse(cursor);
  return from >= oldest
    ? { since: new Date(from), clipped: false }
    : { since: new Date(oldest), clipped: cursor !== null };
}

export interface CdcDelete {
  entity: string;
  stub: QboDeletedStub;
  /** UTC ISO of the stub's LastUpdatedTime (the delete). */
  at: string;
}

export async function* readCdcDeletes(
  ctx: Pick<ReadContext, 'http' | 'signal' | 'logger'>,
  entities: readonly string[],
  since: Date,
): AsyncGenerator<CdcDelete[]> {
  const queue: Array<{ entities: readonly string[]; since: Date }> = [{ entities, since }];
  const yielded = new Set<string>();
  while (queue.length > 0) {
    const call = queue.shift()!;
    // https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/change-data-capture
    const response = await ctx.http.request({
      path: 'cdc',
      endpoint: 'GET /cdc',
      query: { entities: call.entities.join(','), changedSince: timestampLiteral(call.since).slice(1, -1) },
      schema: QboCdcResponse,
      signal: ctx.signal,
    });
    let returned = 0;
    let truncated = false;
    let latest = call.since.getTime();
    const deletes: CdcDelete[] = [];
    for (const block of response.CDCResponse.flatMap((r) => r.QueryResponse ?? [])) {
      for (const entity of call.entities) {
        const list = block[entity];
        if (!Array.isArray(list)) continue;
        returned += list.length;
        const total = block.totalCount;
        if (typeof total === 'number' && total > list.length) truncated = true;
        for (const item of list) {
          const parsed = QboCdcRecord.safeParse(item);
          if (!parsed.success) continue;
          const at = parseTimestamp(parsed.data.MetaData.LastUpdatedTime);
          if (!at.ok) continue;
          latest = Math.max(latest, Date.parse(at.value));
          if (parsed.data.status !== 'Deleted') continue;
          const key = `${entity}:${parsed.data.Id}:${at.value}`;
          if (yielded.has(key)) continue;
          yielded.add(key);
          deletes.push({ entity, stub: parsed.data as QboDeletedStub, at: at.value });
        }
      }
    }
    if (deletes.length) yield deletes;
    if (returned < CDC_MAX_OBJECTS && !truncated) continue;
    if (call.entities.length > 1) {
      for (const entity of call.entities) queue.push({ entities: [entity], since: call.since });
    } else if (latest > call.since.getTime()) {
      queue.push({ entities: call.entities, since: new Date(latest) });
    } else {
      ctx.logger.warn(
        { entities: call.entities, since: call.since.toISOString() },
        'CDC saturated within one second; remaining deletes are left to reconciliation',
      );
    }
  }
}

/** A delete stub as a row of the read: its status `Deleted` makes it a delete (deleted in the ledger, never in billing). */
export function deletedRow(d: CdcDelete): RawRow<QboDeletedStub> {
  return { raw: d.stub, version: d.at };
}

/**
 * A stream's status rule with CDC stubs: a stub says `"status": "Deleted"` (QuickBooks entities have no
 * lower-case `status` field of their own), anything else is read by the stream's rule.
 */
export function orDeleted<Raw>(statusOf: (raw: Raw) => string | undefined): (raw: Raw) => string | undefined {
  return (raw) => ((raw as { status?: unknown }).status === 'Deleted' ? 'Deleted' : statusOf(raw));
}
