import { mapInvoice } from '../map/invoice.js';
import { rawInvoiceStatus } from '../map/status.js';
import { documentStream } from './document-stream.js';
import { attachCreditMemos, attachCustomers } from './enrich.js';

/**
 * QBO invoices (stream 'invoices'). How the read works is in document-stream.ts; in short:
 * - cursor: MetaData.LastUpdatedTime (UTC ISO), inclusive; sorted, checkpointable after each page.
 * - paging: ORDERBY MetaData.LastUpdatedTime, MAXRESULTS ≤ 1000, and after every page the next statement
 *   starts again at `>=` the last timestamp with STARTPOSITION 1, dropping repeats by Id+SyncToken
 *   (plain offsets skip a record when an earlier one is edited mid-read and jumps to the end);
 * - window: TxnDate >= from AND TxnDate <= to;
 * - deletes: CDC stubs within 30 days, yielded first as `deleted: true`; older ones via listIds
 *   (SELECT Id … paged by CreateTime);
 * - voids: status 'voided' (TotalAmt 0 and PrivateNote "Void…"), never a delete.
 * https://developer.intuit.com/app/developer/qbo/docs/learn/rest-api-features [Q9]; entity fields: github intuit/QuickBooks-V3-Java-SDK ipp-v3-java-data/src/main/xsd/Finance.xsd [Q1]
 */
export const invoicesStream = documentStream({
  name: 'invoices',
  entity: 'Invoice',
  map: mapInvoice,
  status: rawInvoiceStatus,
  enrich: async (ctx, docs) => {
    await attachCustomers(ctx, docs);
    await attachCreditMemos(ctx, docs);
  },
});
