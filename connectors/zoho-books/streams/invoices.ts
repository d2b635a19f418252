import { mapZohoInvoice } from '../map/invoice.js';
import { ZohoInvoiceDetailResponse, ZohoInvoiceList } from '../schemas.js';
import { zohoStream } from './zoho-stream.js';

/** Invoices: `GET /invoices` (summaries) + `GET /invoices/{id}` (line items, taxes, addresses, GST, bcy_*). */
export const invoicesStream = zohoStream({
  name: 'invoices',
  path: 'invoices',
  primaryKey: 'invoice_id',
  detailKey: 'invoice',
  listSchema: ZohoInvoiceList,
  detailSchema: ZohoInvoiceDetailResponse,
  supportsWindow: true,
  needsTaxes: true,
  map: mapZohoInvoice,
});
