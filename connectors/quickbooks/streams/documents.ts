import type { ConnectorDocuments } from '../../../src/connector/types.js';

/**
 * The PDF of an invoice or credit memo, as QuickBooks Online renders it with the company's custom form
 * styles: `GET /v3/company/{realmId}/invoice/{id}/pdf` and `…/creditmemo/{id}/pdf`, `Accept:
 * application/pdf`, behind the connection's OAuth token like every other call
 * (https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/invoice#get-an-invoice-as-pdf,
 * https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/creditmemo#get-a-credit-memo-as-pdf).
 */
export const documents: ConnectorDocuments = {
  pdf: (http, entity, id, signal) => {
    const kind = entity === 'invoices' ? 'invoice' : 'creditmemo';
    return http.download({
      path: `${kind}/${encodeURIComponent(id)}/pdf`,
      endpoint: `GET /${kind}/{id}/pdf`,
      accept: 'application/pdf',
      signal,
    });
  },
};
