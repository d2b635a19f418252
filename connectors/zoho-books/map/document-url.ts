import type { SourceRecord } from '../../../src/connector/types.js';

/**
 * Zoho's own shareable link to the invoice (`invoice_url`, https://www.zoho.com/books/api/v3/invoices/),
 * attached to the invoice in billing when Zoho has one; the worker's signed links are not needed here.
 */
export function invoiceUrlOf(record: SourceRecord): string | undefined {
  const r = record.raw as { invoice_url?: unknown } | undefined;
  return typeof r?.invoice_url === 'string' && /^https?:\/\//.test(r.invoice_url) ? r.invoice_url : undefined;
}
