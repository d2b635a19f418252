import { describe, expect, it } from 'vitest';
import { toCreditNote } from '../../../../connectors/zoho-books/map/credit-note.js';
import { toCustomer } from '../../../../connectors/zoho-books/map/customer.js';
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

/** The connection's `fields` rules on Zoho's reporting tags and custom fields (src/mapping/place-fields.ts). */
describe('a connection fields mapping on Zoho records (map/labels.ts)', () => {
  // invoice-einvoiced-tds.json: Zoho's invoice shape (https://www.zoho.com/books/api/v3/invoices/) with
  // tags[] {tag_id, tag_name: "Region", tag_option_name: "West"} and custom_fields[] {cf_project_code
  // "Project code", cf_milestone}; see test/fixtures/zoho-books/README.md.
  const fields = [
    { from: { customField: 'Project code' }, to: { tag: 'project' } },
    { from: { reportingTag: 'Region' }, to: { metaData: 'region' } },
  ];

  it('given rules naming a custom field by label and a reporting tag by name, then each is moved to the key its rule names and no longer sent at its default place', () => {
    const inv = invoiceOf(toInvoice(record('invoice-einvoiced-tds', 'invoice'), mapContext({ fields })));
    expect(inv.tags).toEqual({ project: 'PRJ-2025-17' });
    expect(inv.metaData).toMatchObject({ region: 'West', cf_milestone: 2 });
    expect(inv.metaData).not.toHaveProperty('cf_project_code');
  });

  it('given a rule naming a custom field by its api_name, then it matches as by its label', () => {
    const rules = [{ from: { customField: 'cf_milestone' }, to: { metaData: 'milestone' } }];
    const inv = invoiceOf(toInvoice(record('invoice-einvoiced-tds', 'invoice'), mapContext({ fields: rules })));
    expect(inv.metaData).toMatchObject({ milestone: 2, cf_project_code: 'PRJ-2025-17' });
    expect(inv.metaData).not.toHaveProperty('cf_milestone');
  });

  it('given a rule sending a field to a metaData key the sync writes itself, then the sync keeps its value and warns', () => {
    const rules = [{ from: { customField: 'Project code' }, to: { metaData: 'sourceStatus' } }];
    const result = toInvoice(record('invoice-einvoiced-tds', 'invoice'), mapContext({ fields: rules }));
    expect(invoiceOf(result).metaData!.sourceStatus).toBe('partially_paid');
    expect(result.ok && result.warnings).toContainEqual(expect.stringContaining('custom_fields.0 (cf_project_code)'));
  });

  it('given a credit note and a contact carrying reporting tags and custom fields, then they are placed by the same rules', () => {
    const tagged = (raw: Record<string, any>) => {
      raw.tags = [{ tag_id: '1890000000009201', tag_name: 'Region', tag_option_id: '9', tag_option_name: 'South' }];
      raw.custom_fields = [
        { customfield_id: '1890000000009301', api_name: 'cf_project_code', label: 'Project code', value: 'PRJ-9' },
      ];
    };
    const cn = toCreditNote(variant('credit-note-two-invoices', 'creditnote', tagged), mapContext({ fields }));
    expect(cn.ok && cn.value.kind === 'credit-note' && cn.value.creditNote).toMatchObject({
      tags: { project: 'PRJ-9' },
      metaData: { region: 'South' },
    });
    const plain = toCreditNote(variant('credit-note-two-invoices', 'creditnote', tagged), mapContext());
    expect(plain.ok && plain.value.kind === 'credit-note' && plain.value.creditNote).toMatchObject({
      tags: { Region: 'South' },
      metaData: { cf_project_code: 'PRJ-9' },
    });
    const contact = toCustomer(variant('contact-business', 'contact', tagged), mapContext({ fields }));
    expect(contact.ok && contact.value.kind === 'customer' && contact.value.customer).toMatchObject({
      tags: { project: 'PRJ-9' },
      metaData: { region: 'South' },
    });
  });
});
