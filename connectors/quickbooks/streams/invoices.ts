import { rawInvoiceStatus, toInvoice } from '../map/invoice.js';
import { defineStream } from '../../../src/connector/define-stream.js';
import { signedDocumentUrl } from '../../../src/documents/document-links.js';
import type { Settings } from '../settings.js';
import { orDeleted } from './cdc.js';
import { fetchLookups, type QboLookups } from './lookups.js';
import { pager, type QboRecord } from './read.js';
import { attachCreditMemos, attachCustomers } from './related.js';
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
  // No selection (src/connector/selection.ts): the supplier's side is another entity (Bill), never read here.
  map: toInvoice,
  // The worker's signed link to the invoice's PDF (src/documents/, connectors/quickbooks/documents.ts).
  documentUrl: signedDocumentUrl('invoices'),
  pager: pager({
    entity: 'Invoice',
    deletes: true,
    enrich: async (ctx, docs) => {
      await attachCustomers(ctx, docs);
      await attachCreditMemos(ctx, docs);
    },
  }),
});
