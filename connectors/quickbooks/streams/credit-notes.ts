import { rawCreditMemoStatus, toCreditNote } from '../map/credit-note.js';
import { attachCustomers, defineStream } from './read.js';

/**
 * Credit notes: QBO credit memos, `SELECT * FROM CreditMemo …`, read as invoices are (read.ts: cursor,
 * paging, CDC deletes, listIds, TxnDate window). QBO cannot void a credit memo (README.md, "Voids and
 * deletes"), so its status says how much credit is left. Each page gets its customers attached.
 */
export const creditNotesStream = defineStream({
  name: 'credit-notes',
  entity: 'CreditMemo',
  supportsWindow: true,
  deletes: true,
  status: rawCreditMemoStatus,
  // QuickBooks cannot void a credit memo (README.md, "Voids and deletes"): every one is issued.
  lifecycle: {},
  enrich: attachCustomers,
  map: toCreditNote,
});
