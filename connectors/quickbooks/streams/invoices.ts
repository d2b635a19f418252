import type { ReadContext } from '../../../src/connector/types.js';
import { rawInvoiceStatus, toInvoice } from '../map/invoice.js';
import { defineStream } from '../../../src/connector/define-stream.js';
import type { Settings } from '../settings.js';
import { orDeleted } from './cdc.js';
import { fetchLookups, type QboLookups } from './lookups.js';
import { attachCustomers, pager, type QboDoc, type QboRecord, readByIds, unique } from './read.js';
import { initialState, State } from './state.js';

/**
 * Invoices: `SELECT * FROM Invoice …` (read.ts: cursor, paging, CDC deletes, listIds for older ones,
 * TxnDate window; https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/data-queries).
 * Voids stay invoices with status 'voided' (TotalAmt 0 and PrivateNote "Void…"), never deletes. Each page
 * gets its customers and the credit memos its invoices link to attached before mapping.
 */
export const invoicesStream = defineStream<QboRecord, State, Settings, QboLookups>({
  name: 'invoices',
  primaryKey: 'Id',
  cursorField: 'MetaData.LastUpdatedTime',
  state: State,
  initialState,
  lookups: fetchLookups,
  supportsWindow: true,
  statusOf: orDeleted(rawInvoiceStatus),
  lifecycle: { void: ['voided'] },
  deleted: ['Deleted'],
  map: toInvoice,
  pager: pager({
    entity: 'Invoice',
    deletes: true,
    enrich: async (ctx, docs) => {
      await attachCustomers(ctx, docs);
      await attachCreditMemos(ctx, docs);
    },
  }),
});

/**
 * Attaches the credit memos an invoice's LinkedTxn names as `_creditMemos`: the invoice says which memos
 * settled part of it but not how much, and the memos say it (map/invoice.ts, creditsApplied).
 */
export async function attachCreditMemos(ctx: Pick<ReadContext, 'http' | 'signal'>, docs: QboDoc[]): Promise<void> {
  const linksOf = (d: QboDoc) =>
    (Array.isArray(d.LinkedTxn) ? d.LinkedTxn : [])
      .filter(
        (l): l is { TxnType: string; TxnId: unknown } =>
          typeof l === 'object' && l !== null && (l as { TxnType?: unknown }).TxnType === 'CreditMemo',
      )
      .map((l) => String(l.TxnId));
  const ids = unique(docs.flatMap(linksOf));
  if (ids.length === 0) return;
  const found = await readByIds(ctx, 'CreditMemo', ids);
  for (const d of docs) {
    const memos = linksOf(d).flatMap((id) => {
      const m = found.get(id);
      return m ? [m] : [];
    });
    if (memos.length) d._creditMemos = memos;
  }
}
