import { z } from 'zod';
import { countByProbing } from '../../src/connector/count-by-probing.js';
import type { EntityName } from '../../src/connector/entities.js';
import type { QuotaProfile } from '../../src/connector/quota-profile.js';
import type { ReadContext } from '../../src/connector/types.js';
import type { Settings } from './settings.js';
import { contactSelection } from './streams/customers.js';
import type { ZohoLookups } from './streams/lookups.js';
import { listParamsOf } from './streams/read.js';

/** Each stream's list (https://www.zoho.com/books/api/v3/invoices/#list-invoices, and the credit notes and contacts lists alike). */
const LISTS: Record<EntityName, { path: string; query?: Record<string, string> }> = {
  invoices: { path: 'invoices' },
  'credit-notes': { path: 'creditnotes' },
  customers: { path: 'contacts', query: listParamsOf(contactSelection, 'customers') },
};

/** Zoho's largest `per_page` (https://www.zoho.com/books/api/v3/pagination/). */
const MAX_PER_PAGE = 200;

/** Tax groups assumed when the organisation's lookups were not read (an Indian GST organisation has about six). */
export const ASSUMED_TAX_GROUPS = 6;

const ListPage = z.looseObject({ page_context: z.looseObject({ has_more_page: z.boolean().optional() }).optional() });

/**
 * Zoho's calls as its reads make them (streams/read.ts, streams/lookups.ts): one list call per stream per
 * run when nothing changed; lookups refresh `GET /organizations`, `GET /settings/taxes` and one
 * `GET /settings/taxgroups/{id}` per group; a first sync lists 200 rows a call, reads each record's
 * detail (one call a record) and, past one page, lists the ids once more.
 */
export const quotaProfile: QuotaProfile<Settings> = {
  listCallsPerRun: () => 1,
  lookupCalls: (lookups) => {
    const taxes = (lookups as Partial<ZohoLookups> | undefined)?.taxes;
    const groups = taxes ? Object.values(taxes).filter((t) => t.isGroup).length : ASSUMED_TAX_GROUPS;
    return 2 + groups;
  },
  lookupsCacheSeconds: (settings) => settings.lookupsCacheSeconds,
  firstSyncCalls: (_entity, records, settings) => {
    const pages = Math.max(1, Math.ceil(records / settings.pageSize));
    return records + pages + (pages > 1 ? Math.ceil(records / MAX_PER_PAGE) : 0);
  },
  countRecords: (ctx, entity) =>
    countByProbing(MAX_PER_PAGE, (page) => rowsOnPage(ctx as ReadContext<Settings>, entity, page)),
};

async function rowsOnPage(ctx: ReadContext<Settings>, entity: EntityName, page: number): Promise<number> {
  const list = LISTS[entity];
  const res = (await ctx.http.request({
    path: list.path,
    endpoint: `GET /${list.path}`,
    query: { ...list.query, page, per_page: MAX_PER_PAGE },
    schema: ListPage,
    signal: ctx.signal,
  })) as Record<string, unknown>;
  const rows = res[list.path];
  return Array.isArray(rows) ? rows.length : 0;
}
