import { toInvoice } from '../map/invoice.js';
import { ZohoInvoiceDetailResponse, ZohoInvoiceList } from '../schemas.js';
import { fetchLookups } from './lookups.js';
import { defineStream } from './read.js';

/**
 * Invoices: `GET /invoices` (summaries) + `GET /invoices/{id}` (line items, taxes, addresses, GST, bcy_*)
 * (https://www.zoho.com/books/api/v3/invoices/).
 */
export const invoicesStream = defineStream({
  name: 'invoices',
  path: 'invoices',
  primaryKey: 'invoice_id',
  detailKey: 'invoice',
  listSchema: ZohoInvoiceList,
  detailSchema: ZohoInvoiceDetailResponse,
  supportsWindow: true,
  lookups: fetchLookups,
  map: toInvoice,
});
