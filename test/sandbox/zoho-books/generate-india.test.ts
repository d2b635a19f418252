import { describe, expect, it } from 'vitest';
import { toCreditNote } from '../../../connectors/zoho-books/map/credit-note.js';
import { toInvoice } from '../../../connectors/zoho-books/map/invoice.js';
import type { ZohoLookups } from '../../../connectors/zoho-books/streams/lookups.js';
import {
  EmulatorClock,
  generateData,
  renderCreditNoteDetail,
  renderInvoiceDetail,
  ZohoDataStore,
  type ZohoDataset,
} from '../../../sandbox/zoho-books/index.js';

type Json = Record<string, any>;

function rendered(dataset: ZohoDataset): Json[] {
  const store = new ZohoDataStore(dataset, new EmulatorClock({ now: '2026-01-01T00:00:00Z', frozen: true }));
  return JSON.parse(JSON.stringify(store.invoices().map((i) => renderInvoiceDetail(i, store.render)))) as Json[];
}

/** The organisation's lookups as the connector builds them from GET /organizations and /settings/taxes. */
function lookupsOf(dataset: ZohoDataset): ZohoLookups {
  const org = dataset.organization;
  return {
    organization: {
      organizationId: org.organization_id,
      name: org.name,
      baseCurrency: org.base_currency,
      timeZone: org.time_zone,
      stateCode: org.state_code,
      gstNo: org.gst_no,
    },
    taxes: Object.fromEntries(
      dataset.taxes.all.map((t) => [
        t.tax_id,
        {
          id: t.tax_id,
          name: t.tax_name,
          percentage: String(t.tax_percentage),
          isGroup: t.tax_type === 'tax_group',
          specificType: t.tax_specific_type,
          components: t.components,
        },
      ]),
    ),
  } as ZohoLookups;
}

const data = generateData({ seed: 1, records: 300 });
const invoices = rendered(data);
const lookups = lookupsOf(data);
const cents = (n: number) => Math.round(n * 100);

describe('Zoho sandbox, India organisation (sandbox/zoho-books/generate-india.ts)', () => {
  it('given seed 1 and 300 invoices, then some are e-invoiced (pushed, cancelled, failed), TDS-withheld, reverse-charge, with cess, exports and SEZ-free B2B, each in its documented shape', () => {
    const e = invoices.filter((i) => i.einvoice_details);
    const status = (s: string) => e.filter((i) => i.einvoice_details.status === s);
    expect(status('pushed').length).toBeGreaterThan(20);
    expect(status('cancelled').length).toBeGreaterThan(0);
    expect(status('failed').length).toBeGreaterThan(0);
    for (const i of status('pushed')) {
      expect(i.einvoice_details.inv_ref_num).toMatch(/^[0-9a-f]{64}$/);
      expect(i.einvoice_details.ack_number).toMatch(/^\d{15}$/);
      expect(i.einvoice_details.ack_date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(i.einvoice_details.qr_link).toContain('books.zoho.in/einvoice/qrcode');
    }
    const tds = invoices.filter((i) => i.tax_amount_withheld > 0);
    expect(tds.length).toBeGreaterThan(5);
    for (const i of tds) {
      const lines = i.line_items.reduce((s: number, l: Json) => s + cents(l.tds_tax_amount), 0);
      expect(cents(i.tax_amount_withheld)).toBe(lines);
      expect(i.tds_summary).toHaveLength(1);
    }
    expect(invoices.filter((i) => i.is_reverse_charge_applied).length).toBeGreaterThan(0);
    expect(invoices.filter((i) => i.taxes.some((t: Json) => /cess/i.test(t.tax_name))).length).toBeGreaterThan(0);
    expect(invoices.filter((i) => i.gst_treatment === 'overseas').length).toBeGreaterThan(0);
    expect(invoices.filter((i) => i.tags.length > 0 && i.custom_fields.length > 0).length).toBeGreaterThan(50);
  });

  it('given the same seed twice, then the India fields are identical', () => {
    expect(rendered(generateData({ seed: 1, records: 300 }))).toEqual(invoices);
  });

  it("given every generated invoice, when mapped, then none is quarantined and billing's outstanding equals Zoho's balance to the paisa", () => {
    const problems: string[] = [];
    for (const raw of invoices) {
      const result = toInvoice(
        { id: raw.invoice_id, version: '2026-01-01T00:00:00.000Z', raw },
        { connectionId: 'zoho-in', originSource: 'EXTERNAL_SYSTEM_A', baseCurrency: 'INR', lookups },
      );
      if (!result.ok) {
        problems.push(`${raw.invoice_number}: ${result.reason} ${result.message}`);
        continue;
      }
      if (result.value.kind !== 'invoice') continue;
      const inv = result.value.invoice;
      const outstanding = cents(inv.invoiceTotal) - cents(inv.invoicePaidAmount) - cents(inv.invoiceAdjustedAmount);
      if (raw.status !== 'void' && raw.status !== 'draft' && outstanding !== cents(raw.balance))
        problems.push(`${raw.invoice_number}: outstanding ${outstanding} ≠ balance ${cents(raw.balance)}`);
      const e = raw.einvoice_details;
      if (e?.status === 'pushed' && inv.irnNumber !== e.inv_ref_num) problems.push(`${raw.invoice_number}: IRN`);
      if (e?.status === 'cancelled' && inv.irnNumber !== undefined)
        problems.push(`${raw.invoice_number}: cancelled IRN sent`);
    }
    expect(problems).toEqual([]);
  });
});

describe('Zoho sandbox, India organisation: credit notes (sandbox/zoho-books/generate-india.ts)', () => {
  const withNotes = generateData({ seed: 1, records: 300, creditNotes: 120 });
  const store = new ZohoDataStore(withNotes, new EmulatorClock({ now: '2026-01-01T00:00:00Z', frozen: true }));
  const notes = JSON.parse(
    JSON.stringify(store.creditNotes().map((c) => renderCreditNoteDetail(c, store.render))),
  ) as Json[];

  it("given seed 1 and 120 credit notes, then posted ones to registered or overseas customers are e-invoiced in the invoice's shape (a void one's IRN cancelled), and some carry a Region reporting tag", () => {
    const e = notes.filter((c) => c.einvoice_details);
    expect(e.length).toBeGreaterThan(5);
    for (const c of e) {
      expect(['business_gst', 'overseas']).toContain(c.gst_treatment);
      expect(c.status).not.toBe('draft');
      if (c.status === 'void') expect(c.einvoice_details.status).toBe('cancelled');
      if (c.einvoice_details.status === 'pushed') {
        expect(c.einvoice_details.inv_ref_num).toMatch(/^[0-9a-f]{64}$/);
        expect(c.einvoice_details.ack_number).toMatch(/^1\d{14}$/);
        expect(c.einvoice_details.ack_date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
        expect(c.einvoice_details.qr_link).toContain(`eInvoiceID=2-${c.creditnote_id}`);
      }
    }
    expect(notes.some((c) => c.tags[0]?.tag_name === 'Region')).toBe(true);
  });

  it('given every e-invoiced credit note, when mapped, then billing gets its IRN, acknowledgement and status in metaData, and its reporting tag in tags', () => {
    const ctx = { connectionId: 'zoho-in', originSource: 'EXTERNAL_SYSTEM_A' as const, baseCurrency: 'INR', lookups };
    const pushed = notes.filter((c) => c.einvoice_details?.status === 'pushed');
    expect(pushed.length).toBeGreaterThan(0);
    for (const c of pushed) {
      const r = toCreditNote({ id: c.creditnote_id, version: '2026-01-01T00:00:00.000Z', raw: c }, ctx);
      if (!r.ok) throw new Error(`${c.creditnote_number}: ${r.reason} ${r.message}`);
      const body = r.value.kind === 'credit-note' ? r.value.creditNote : undefined;
      expect(body?.metaData).toMatchObject({
        einvoiceIrn: c.einvoice_details.inv_ref_num,
        einvoiceAckNumber: c.einvoice_details.ack_number,
        einvoiceStatus: 'pushed',
      });
      if (c.tags.length) expect(body?.tags).toEqual({ Region: c.tags[0].tag_option_name });
    }
  });
});
