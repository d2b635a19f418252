import { toInvoice } from '../map/invoice.js';
import { invoiceUrlOf } from '../map/document-url.js';
import { ZohoInvoiceDetailResponse, ZohoInvoiceList } from '../schemas.js';
import { fetchLookups, type ZohoLookups } from './lookups.js';
import { defineStream } from '../../../src/connector/define-stream.js';
import type { Settings } from '../settings.js';
import { pager, statusOf, type ZohoRecord } from './read.js';
import { initialState, State } from './state.js';

/**
 * Invoices: `GET /invoices` (summaries) + `GET /invoices/{id}` (line items, taxes, addresses, GST, bcy_*)
 * (https://www.zoho.com/books/api/v3/invoices/).
 */
export const invoicesStream = defineStream<ZohoRecord, State, Settings, ZohoLookups>({
  name: 'invoices',
  primaryKey: 'invoice_id',
  cursorField: 'last_modified_time',
  state: State,
  initialState,
  supportsWindow: true,
  statusOf,
  // A document Zoho holds as `draft` is not issued yet, one as `void` was voided
  // (https://www.zoho.com/books/api/v3/invoices/, https://www.zoho.com/books/api/v3/credit-notes/).
  lifecycle: { draft: ['draft'], void: ['void'], ignoreCase: true },
  // No selection (src/connector/selection.ts): Zoho keeps suppliers' documents apart (bills, vendor credits).
  lookups: fetchLookups,
  map: toInvoice,
  documentUrl: invoiceUrlOf,
  pager: pager({
    path: 'invoices',
    detailKey: 'invoice',
    listSchema: ZohoInvoiceList,
    detailSchema: ZohoInvoiceDetailResponse,
  }),
});
