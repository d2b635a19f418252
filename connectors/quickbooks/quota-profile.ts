import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { EntityName } from '../../src/connector/entities.js';
import type { QuotaProfile } from '../../src/connector/quota-profile.js';
import type { ReadContext } from '../../src/connector/types.js';
import type { Settings } from './settings.js';
import { runQuery, selectStatement } from './streams/query.js';

/** Each stream's entity, its filter (streams/customers.ts), and the queries one page of it adds (related records by id: streams/related.ts). */
const ENTITIES: Record<EntityName, { entity: string; where?: string[]; perRun: number; perPage: number }> = {
  // CDC (deletes) + the query; a page's customers and credit memos read by id.
  invoices: { entity: 'Invoice', perRun: 2, perPage: 3 },
  'credit-notes': { entity: 'CreditMemo', perRun: 2, perPage: 2 },
  customers: { entity: 'Customer', where: ['Active IN (true, false)'], perRun: 1, perPage: 1 },
};

/** The app's key in metrics and output: its configured name, else a short hash of the client id (never the id). */
export function appKeyOf(settings: Pick<Settings, 'appName' | 'clientId'>): string {
  return settings.appName ?? `qbo-${createHash('sha256').update(settings.clientId).digest('hex').slice(0, 8)}`;
}

/**
 * QuickBooks' calls as its reads make them (streams/read.ts, streams/lookups.ts): a document stream's run
 * is a CDC call for deletes and a query, the customers' a query; lookups are TaxRate, TaxCode, CompanyInfo
 * and Preferences (4 queries); a first sync is a query per page (MAXRESULTS pageSize) plus the page's
 * related records by id. Every one of them is a read (CorePlus) call, counted against the app's monthly
 * budget across all its companies
 * (https://blogs.intuit.com/2026/01/08/understanding-builder-tier-api-limits-for-you-and-your-customers).
 * A count is one `SELECT COUNT(*)` query
 * (https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/data-queries).
 */
export const quotaProfile: QuotaProfile<Settings> = {
  listCallsPerRun: (entity) => ENTITIES[entity].perRun,
  lookupCalls: () => 4,
  lookupsCacheSeconds: (settings) => settings.lookupsCacheSeconds,
  firstSyncCalls: (entity, records, settings) =>
    Math.max(1, Math.ceil(records / settings.pageSize)) * ENTITIES[entity].perPage + ENTITIES[entity].perRun - 1,
  countRecords: async (ctx, entity) => {
    const e = ENTITIES[entity];
    const statement = selectStatement({ entity: e.entity, select: 'count(*)', where: e.where });
    const { totalCount } = await runQuery(ctx as ReadContext<Settings>, e.entity, statement, z.unknown());
    return { records: totalCount ?? 0, calls: 1 };
  },
  appMonthlyBudget: (settings) =>
    settings.appMonthlyReadBudget > 0 ? { app: appKeyOf(settings), budget: settings.appMonthlyReadBudget } : undefined,
};
