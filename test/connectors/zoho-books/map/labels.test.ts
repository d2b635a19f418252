import { describe, expect, it } from 'vitest';
import { toInvoice } from '../../../../connectors/zoho-books/map/invoice.js';
import { invoiceOf, mapContext, record, variant } from '../fixtures.js';

/** Reporting tags, custom fields and salesperson (map/labels.ts). */
describe('reporting tags, custom fields and salesperson (map/labels.ts)', () => {
  it('given a reporting tag, custom fields and a salesperson, then tags[tag] = option and metaData carries the fields by api_name and the salesperson', () => {
    const inv = invoiceOf(toInvoice(record('invoice-einvoiced-tds', 'invoice'), mapContext()));
    expect(inv.tags).toEqual({ Region: 'West' });
    expect(inv.metaData).toMatchObject({
      cf_project_code: 'PRJ-2025-17',
      cf_milestone: 2,
      salespersonId: '1890000000060003',
      salespersonName: 'Ananya Rao',
    });
  });

  it('given a custom field whose value is a list, then it is left out with a warning naming it, and the invoice is still mapped', () => {
    const r = variant('invoice-einvoiced-tds', 'invoice', (i) => {
      i.custom_fields.push({ customfield_id: '1', api_name: 'cf_sites', label: 'Sites', value: ['Pune', 'Nashik'] });
    });
    const result = toInvoice(r, mapContext());
    expect(invoiceOf(result).metaData).not.toHaveProperty('cf_sites');
    expect(result.ok && result.warnings).toContainEqual(expect.stringContaining('custom_fields.2 (cf_sites)'));
  });

  it('given no tags, then no tags object is sent', () => {
    expect(invoiceOf(toInvoice(record('invoice-intra-state', 'invoice'), mapContext())).tags).toBeUndefined();
  });
});
