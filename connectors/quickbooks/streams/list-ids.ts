import type { ReadContext } from '../../../src/connector/types.js';
import { readSettings } from '../settings.js';
import { readByTimestamp } from './paged-query.js';

/**
 * Every id of an entity that exists now, for reconciliation's id diff: QBO shows deletes only through
 * CDC, and only for 30 days (reference §2.7, trap 12); older deletes are found by listing ids.
 *   SELECT Id, MetaData.CreateTime FROM Invoice WHERE MetaData.CreateTime >= … ORDERBY MetaData.CreateTime
 * A field list rather than `*` keeps pages small (VERIFY which projections Intuit honours; it may return
 * whole records, which works the same). Paged by CreateTime, which never changes, with the same keyset
 * re-query as the reads (paged-query.ts): a delete during the listing cannot shift a live id out of view,
 * which with plain offsets would make an existing invoice look deleted.
 */
export async function* listEntityIds(ctx: ReadContext, entity: string): AsyncGenerator<string[]> {
  const { pageSize } = readSettings(ctx.settings);
  for await (const page of readByTimestamp(ctx, { entity, select: 'Id, MetaData.CreateTime', field: 'CreateTime', pageSize, from: null })) {
    if (page.rows.length) yield page.rows.map((r) => r.row.Id);
  }
}
