import { toInvoice } from '../map/invoice.js';
import { XeroInvoicesResponse, type XeroInvoice } from '../schemas.js';
import type { Settings } from '../settings.js';
import { fetchLookups } from './lookups.js';
import { defineStream } from '../../../src/connector/define-stream.js';
import { signedDocumentUrl } from '../../../src/documents/document-links.js';
import type { Selection } from '../../../src/connector/selection.js';
import { pager } from './read.js';
import { initialState, State } from './state.js';
import { ALL_STATUSES } from './where-clause.js';

/** The endpoint also holds bills; webhooks announce them too (INVOICE events), and a read by id returns them. */
export const invoiceSelection: Selection<XeroInvoice> = [
  { field: 'Type', takes: ['ACCREC'], otherwise: 'a bill, not a sales invoice', listFilter: true },
];

/**
 * Sales invoices. https://developer.xero.com/documentation/api/accounting/invoices#get-invoices
 * GET /Invoices with `where=Type=="ACCREC"` (the selection: the endpoint also returns ACCPAY bills), every status via
 * `Statuses=` (so VOIDED and DELETED are seen), `order=UpdatedDateUTC ASC`, `page` (line items only come
 * with it), `pageSize`, `If-Modified-Since`. Paging strategy and cursor safety: read.ts.
 * Deletes: Status DELETED → SourceRecord.deleted; VOIDED is a status. Window: `Date>=DateTime(..) AND
 * Date<=DateTime(..)`.
 */
export const invoicesStream = defineStream<XeroInvoice, State, Settings, any>({
  name: 'invoices',
  primaryKey: 'InvoiceID',
  cursorField: 'UpdatedDateUTC',
  state: State,
  initialState,
  supportsWindow: true,
  statusOf: (raw) => raw.Status,
  // Not issued yet: DRAFT, and SUBMITTED (awaiting approval); VOIDED stays a document, never a delete.
  lifecycle: { draft: ['DRAFT', 'SUBMITTED'], void: ['VOIDED'] },
  deleted: ['DELETED'],
  selection: invoiceSelection,
  lookups: fetchLookups,
  map: toInvoice,
  // The worker's signed link to the invoice's PDF (src/documents/, connectors/xero/documents.ts).
  documentUrl: signedDocumentUrl('invoices'),
  pager: pager({
    path: 'Invoices',
    schema: XeroInvoicesResponse,
    params: { Statuses: ALL_STATUSES.join(',') },
    byIds: 'IDs',
  }),
});
