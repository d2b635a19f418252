import type { SourceRecord, Stream, StreamPage } from '../../../src/connector/types.js';
import { mapCustomer } from '../map/customer.js';
import { readSettings } from '../settings.js';
import { fetchLookups } from './lookups.js';
import { readByTimestamp } from './paged-query.js';
import { initialState, QboStreamState } from './state.js';

/**
 * QBO customers (stream 'customers').
 *   SELECT * FROM Customer WHERE Active IN (true, false) AND MetaData.LastUpdatedTime >= '<cursor>' …
 *     ORDERBY MetaData.LastUpdatedTime ASC STARTPOSITION n MAXRESULTS ≤ 1000
 * The default query returns active customers only; QBO "deletes" a customer by making it inactive, so
 * `Active IN (true, false)` is what lets us see that change (reference §2.3, §2.6; Singer does the same).
 * Inactive is a status (customerStatus INACTIVE), never a delete. Paging as paged-query.ts explains
 * (sorted by the cursor, checkpointable per page). No document date: no window. No deletes to read.
 * https://developer.intuit.com/app/developer/qbo/docs/learn/rest-api-features [Q9]; entity fields: github intuit/QuickBooks-V3-Java-SDK ipp-v3-java-data/src/main/xsd/Finance.xsd [Q1]
 */
export const customersStream: Stream<Record<string, unknown>, QboStreamState> = {
  name: 'customers',
  primaryKey: 'Id',
  cursorField: 'MetaData.LastUpdatedTime',
  isSorted: true,
  state: QboStreamState,
  initialState,
  supportsWindow: false,
  lookups: (ctx) => fetchLookups(ctx),
  map: mapCustomer,
  async *read(ctx, state): AsyncGenerator<StreamPage<Record<string, unknown>, QboStreamState>> {
    const { pageSize } = readSettings(ctx.settings);
    const read = {
      entity: 'Customer',
      field: 'LastUpdatedTime' as const,
      filters: ['Active IN (true, false)'],
      pageSize,
      from: state.cursor,
      until: ctx.until,
    };
    for await (const page of readByTimestamp(ctx, read)) {
      const records = page.rows.map((r): SourceRecord<Record<string, unknown>> => ({
        id: r.row.Id,
        version: r.at,
        status: r.row.Active === false ? 'inactive' : 'active',
        raw: r.row,
      }));
      yield { records, state: { cursor: page.cursor } };
    }
  },
};
