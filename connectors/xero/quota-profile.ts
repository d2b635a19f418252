import { z } from 'zod';
import { countByProbing } from '../../src/connector/count-by-probing.js';
import type { EntityName } from '../../src/connector/entities.js';
import type { QuotaProfile } from '../../src/connector/quota-profile.js';
import type { ReadContext } from '../../src/connector/types.js';
import { listFilters, type Selection } from '../../src/connector/selection.js';
import { XeroPagination } from './schemas.js';
import { creditNoteSelection } from './streams/credit-notes.js';
import { invoiceSelection } from './streams/invoices.js';
import { whereFor } from './streams/where-clause.js';
import { DEFAULT_PAGE_SIZE, type Settings } from './settings.js';

/** `where` of a stream's selection (src/connector/selection.ts), as its list read sends it. */
const selected = (selection: Selection<never>) => ({ where: whereFor(listFilters(selection), {})! });

/** Each stream's list and its filter (streams/invoices.ts, credit-notes.ts, customers.ts). */
const LISTS: Record<EntityName, { path: string; query: Record<string, string> }> = {
  invoices: { path: 'Invoices', query: selected(invoiceSelection) },
  'credit-notes': { path: 'CreditNotes', query: selected(creditNoteSelection) },
  customers: { path: 'Contacts', query: { includeArchived: 'true' } },
};

const ListPage = z.looseObject({ pagination: XeroPagination.nullish() });

const pageSizeOf = (settings: Settings) =>
  typeof settings.pageSize === 'number' ? settings.pageSize : DEFAULT_PAGE_SIZE;

/**
 * Xero's calls as its reads make them (streams/read.ts, streams/lookups.ts): one list call per stream per
 * run when nothing changed (If-Modified-Since); lookups are the organisation and its tax rates (2 calls);
 * a first sync is one call per page of records (lines come with the page). A count is one call: a paged
 * list answers `pagination.itemCount` (https://developer.xero.com/documentation/api/accounting/invoices),
 * else the pages are probed.
 */
export const quotaProfile: QuotaProfile<Settings> = {
  listCallsPerRun: () => 1,
  lookupCalls: () => 2,
  lookupsCacheSeconds: (settings) => settings.lookupsCacheSeconds,
  firstSyncCalls: (_entity, records, settings) => Math.max(1, Math.ceil(records / pageSizeOf(settings))),
  countRecords: async (ctx, entity) => {
    const first = await page(ctx as ReadContext<Settings>, entity, 1, 1);
    if (first.itemCount !== undefined) return { records: first.itemCount, calls: 1 };
    const probed = await countByProbing(
      100,
      async (p) => (await page(ctx as ReadContext<Settings>, entity, p, 100)).rows,
    );
    return { records: probed.records, calls: probed.calls + 1 };
  },
};

async function page(
  ctx: ReadContext<Settings>,
  entity: EntityName,
  p: number,
  pageSize: number,
): Promise<{ rows: number; itemCount?: number }> {
  const list = LISTS[entity];
  const res = (await ctx.http.request({
    path: list.path,
    endpoint: `GET /${list.path}`,
    query: { ...list.query, page: p, pageSize },
    schema: ListPage,
    signal: ctx.signal,
  })) as Record<string, unknown> & z.infer<typeof ListPage>;
  const rows = res[list.path];
  return {
    rows: Array.isArray(rows) ? rows.length : 0,
    ...(res.pagination ? { itemCount: res.pagination.itemCount } : {}),
  };
}
