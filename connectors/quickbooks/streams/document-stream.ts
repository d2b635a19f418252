import type { BillingBody, EntityName, MapContext, ReadContext, SourceRecord, Stream, StreamPage } from '../../../src/connector/types.js';
import type { MapResult } from '../../../src/mapping/index.js';
import { readSettings } from '../settings.js';
import { cdcSince, deletedRecord, readCdcDeletes } from './cdc.js';
import { listEntityIds } from './list-ids.js';
import { fetchLookups } from './lookups.js';
import { readByTimestamp } from './paged-query.js';
import { quote } from './query.js';
import { initialState, QboStreamState } from './state.js';

/**
 * A QBO sales-document stream (Invoice, CreditMemo). One read:
 *
 * 1. Deletes first, from CDC (cdc.ts), for incremental reads (no backfill window): changedSince =
 *    max(cursor, until − 30 days + 1 h). Each delete stub is yielded as a SourceRecord with
 *    `deleted: true` (the pipeline marks it in the ledger; billing is never asked to delete). These
 *    pages carry the state unchanged. First, because once the query pages below move the checkpoint,
 *    a retried read would ask CDC from the newer cursor and could miss a delete older than it. A cursor
 *    older than 30 days cannot be served by CDC: those deletes are left to reconciliation (listIds).
 * 2. Changed records by query (paged-query.ts: why keyset re-query beats plain STARTPOSITION here):
 *    SELECT * FROM <Entity> WHERE MetaData.LastUpdatedTime >= '<cursor>' AND … <= '<until>'
 *      [AND TxnDate >= '<from>' AND TxnDate <= '<to>'] ORDERBY MetaData.LastUpdatedTime ASC
 *      STARTPOSITION n MAXRESULTS ≤ 1000
 *    isSorted: true — each page's state.cursor is its last record's LastUpdatedTime, never beyond, so
 *    the pipeline may checkpoint after every page. Each page's documents get their customer (and, for
 *    invoices, linked credit memos) attached before mapping (enrich.ts).
 * Voids stay in the query results (TotalAmt 0, PrivateNote "Voided") and map to a status, not a delete.
 */
export interface DocumentStreamOptions {
  name: EntityName;
  entity: 'Invoice' | 'CreditMemo';
  map(record: SourceRecord<unknown>, ctx: MapContext): MapResult<BillingBody>;
  status(raw: Record<string, unknown>): string | undefined;
  enrich(ctx: ReadContext, docs: Array<Record<string, unknown> & { Id: string }>): Promise<void>;
}

export function documentStream(o: DocumentStreamOptions): Stream<Record<string, unknown>, QboStreamState> {
  return {
    name: o.name,
    primaryKey: 'Id',
    cursorField: 'MetaData.LastUpdatedTime',
    isSorted: true,
    state: QboStreamState,
    initialState,
    supportsWindow: true,
    lookups: (ctx) => fetchLookups(ctx),
    map: o.map,
    listIds: (ctx) => listEntityIds(ctx, o.entity),
    async *read(ctx, state): AsyncGenerator<StreamPage<Record<string, unknown>, QboStreamState>> {
      const { pageSize } = readSettings(ctx.settings);
      if (!ctx.window) {
        const { since, clipped } = cdcSince(state.cursor, ctx.until);
        if (clipped) {
          ctx.logger.warn(
            { entity: o.entity, cursor: state.cursor, cdcFrom: since.toISOString() },
            'cursor older than the 30-day CDC window: earlier deletes are left to reconciliation',
          );
        }
        for await (const deletes of readCdcDeletes(ctx, [o.entity], since)) {
          yield { records: deletes.map(deletedRecord) as SourceRecord<Record<string, unknown>>[], state: { ...state } };
        }
      }
      const filters = ctx.window ? [`TxnDate >= ${quote(ctx.window.from)}`, `TxnDate <= ${quote(ctx.window.to)}`] : [];
      for await (const page of readByTimestamp(ctx, { entity: o.entity, field: 'LastUpdatedTime', filters, pageSize, from: state.cursor, until: ctx.until })) {
        const docs = page.rows.map((r) => r.row as Record<string, unknown> & { Id: string });
        if (docs.length) await o.enrich(ctx, docs);
        const records = page.rows.map((r, i): SourceRecord<Record<string, unknown>> => {
          const status = o.status(docs[i]!);
          return { id: r.row.Id, version: r.at, ...(status === undefined ? {} : { status }), raw: docs[i]! };
        });
        yield { records, state: { cursor: page.cursor } };
      }
    },
  };
}
