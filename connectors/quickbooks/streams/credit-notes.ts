import { rawCreditMemoStatus, toCreditNote } from '../map/credit-note.js';
import { defineStream } from '../../../src/connector/define-stream.js';
import { signedDocumentUrl } from '../../../src/documents/document-links.js';
import type { Settings } from '../settings.js';
import { orDeleted } from './cdc.js';
import { fetchLookups, type QboLookups } from './lookups.js';
import { pager, type QboRecord } from './read.js';
import { attachCustomers } from './related.js';
import { initialState, State } from './state.js';

/**
 * Credit notes: QBO credit memos, `SELECT * FROM CreditMemo …`, read as invoices are (read.ts: cursor,
 * paging, CDC deletes, listIds, TxnDate window). QBO cannot void a credit memo (README.md, "Voids and
 * deletes"), so its status says how much credit is left. Each page gets its customers attached.
 */
export const creditNotesStream = defineStream<QboRecord, State, Settings, QboLookups>({
  name: 'credit-notes',
  primaryKey: 'Id',
  cursorField: 'MetaData.LastUpdatedTime',
  state: State,
  initialState,
  lookups: fetchLookups,
  supportsWindow: true,
  statusOf: orDeleted(rawCreditMemoStatus),
  // QuickBooks cannot void a credit memo (README.md, "Voids and deletes"): every one is issued.
  lifecycle: {},
  deleted: ['Deleted'],
  // No selection (src/connector/selection.ts): the supplier's side is another entity (VendorCredit), never read here.
  map: toCreditNote,
  documentUrl: signedDocumentUrl('credit-notes'),
  pager: pager({ entity: 'CreditMemo', deletes: true, enrich: attachCustomers }),
});
