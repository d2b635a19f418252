import { mapCreditNote } from '../map/credit-note.js';
import { rawCreditMemoStatus } from '../map/status.js';
import { documentStream } from './document-stream.js';
import { attachCustomers } from './enrich.js';

/**
 * QBO credit memos (stream 'credit-notes'): the same read as invoices (document-stream.ts) over
 * `CreditMemo` — LastUpdatedTime cursor, keyset re-query paging, TxnDate window, CDC delete stubs,
 * listIds for older deletes. Credit memos cannot be voided in QBO [Q15].
 * https://developer.intuit.com/app/developer/qbo/docs/learn/rest-api-features [Q9]; entity fields: github intuit/QuickBooks-V3-Java-SDK ipp-v3-java-data/src/main/xsd/Finance.xsd [Q1]
 */
export const creditNotesStream = documentStream({
  name: 'credit-notes',
  entity: 'CreditMemo',
  map: mapCreditNote,
  status: rawCreditMemoStatus,
  enrich: attachCustomers,
});
