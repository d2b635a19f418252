import type { ReadContext } from '../../../src/connector/types.js';
import { z } from 'zod';
import { QboId } from '../schemas.js';
import { inList, MAX_RESULTS, selectStatement } from './query.js';
import { runQuery } from './run-query.js';

/**
 * Fetches what a page of documents refers to, in one query per 100 ids (URLs stay short):
 * - the customers of CustomerRef (`_customer`): GSTIN, PAN, registration type, addresses and contacts
 *   live on the Customer, not on the invoice; `Active IN (true, false)` so inactive ones are found;
 * - the credit memos an invoice's LinkedTxn names (`_creditMemos`): how much of the balance was
 *   settled by credit rather than cash (map/credits-applied.ts).
 * Both are attached under `_`-prefixed keys, which QBO never uses. A record not found stays unattached
 * (the mapper then uses what the document says).
 */
const CHUNK = 100;

type Doc = Record<string, unknown> & { Id: string };

export async function attachCustomers(ctx: Pick<ReadContext, 'http' | 'signal'>, docs: Doc[]): Promise<void> {
  const ids = unique(docs.map((d) => refValue(d.CustomerRef)));
  const found = await fetchByIds(ctx, 'Customer', ids, ['Active IN (true, false)']);
  for (const d of docs) {
    const customer = found.get(refValue(d.CustomerRef) ?? '');
    if (customer) d._customer = customer;
  }
}

export async function attachCreditMemos(ctx: Pick<ReadContext, 'http' | 'signal'>, docs: Doc[]): Promise<void> {
  const linksOf = (d: Doc) =>
    (Array.isArray(d.LinkedTxn) ? d.LinkedTxn : [])
      .filter((l): l is { TxnType: string; TxnId: unknown } => typeof l === 'object' && l !== null && (l as { TxnType?: unknown }).TxnType === 'CreditMemo')
      .map((l) => String(l.TxnId));
  const ids = unique(docs.flatMap(linksOf));
  if (ids.length === 0) return;
  const found = await fetchByIds(ctx, 'CreditMemo', ids, []);
  for (const d of docs) {
    const memos = linksOf(d).flatMap((id) => {
      const m = found.get(id);
      return m ? [m] : [];
    });
    if (memos.length) d._creditMemos = memos;
  }
}

/** Rows are kept raw (only Id is checked): the mapper validates them, so one odd record fails alone. */
const Row = z.looseObject({ Id: QboId });

async function fetchByIds(ctx: Pick<ReadContext, 'http' | 'signal'>, entity: string, ids: string[], filters: string[]): Promise<Map<string, unknown>> {
  const found = new Map<string, unknown>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    const statement = selectStatement({ entity, where: [inList('Id', chunk), ...filters], maxResults: MAX_RESULTS });
    // https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/data-queries
    const { rows } = await runQuery(ctx, entity, statement, Row);
    for (const row of rows) found.set(row.Id, row);
  }
  return found;
}

function refValue(ref: unknown): string | undefined {
  const v = (ref as { value?: unknown } | undefined)?.value;
  return v === undefined || v === null ? undefined : String(v);
}

function unique(values: Array<string | undefined>): string[] {
  return [...new Set(values.filter((v): v is string => v !== undefined && v !== ''))];
}
