import type { ConnectorDocuments } from '../../../src/connector/types.js';

/**
 * The PDF of a sales invoice or credit note as Xero renders it: the same `GET /Invoices/{InvoiceID}` and
 * `GET /CreditNotes/{CreditNoteID}` as a read by id, with `Accept: application/pdf`, behind the
 * connection's OAuth token and `xero-tenant-id`, counted against the organisation's limits like any call
 * (https://developer.xero.com/documentation/api/accounting/invoices#get-invoices,
 * https://developer.xero.com/documentation/api/accounting/creditnotes#get-creditnotes).
 */
export const documents: ConnectorDocuments = {
  pdf: (http, entity, id, signal) => {
    const collection = entity === 'invoices' ? 'Invoices' : 'CreditNotes';
    return http.download({
      path: `${collection}/${encodeURIComponent(id)}`,
      endpoint: `GET /${collection}/{id} (PDF)`,
      accept: 'application/pdf',
      signal,
    });
  },
};
