import { describe, expect, it } from 'vitest';
import {
  EmulatorClock,
  generateData,
  gstinCheckCharacter,
  renderContactDetail,
  renderCreditNoteDetail,
  renderInvoiceDetail,
  ZohoDataStore,
  type ZohoDataset,
} from '../../../sandbox/zoho-books/index.js';

type Json = Record<string, unknown>;

/** Everything a client could observe, as wire JSON. */
function observable(dataset: ZohoDataset): Json {
  const store = new ZohoDataStore(dataset, new EmulatorClock({ now: '2026-01-01T00:00:00Z', frozen: true }));
  const receivables = store.receivables();
  return JSON.parse(
    JSON.stringify({
      organization: dataset.organization,
      taxes: dataset.taxes.all,
      contacts: store.contacts().map((c) =>
        renderContactDetail(
          c,
          store.render,
          receivables.get(c.contact_id) ?? {
            outstandingMinor: 0,
            outstandingBcyMinor: 0,
            unusedCreditsMinor: 0,
            unusedCreditsBcyMinor: 0,
          },
        ),
      ),
      invoices: store.invoices().map((i) => renderInvoiceDetail(i, store.render)),
      creditNotes: store.creditNotes().map((c) => renderCreditNoteDetail(c, store.render)),
    }),
  ) as Json;
}

const data = generateData({ seed: 1 });
const wire = observable(data);
const invoices = wire.invoices as Json[];
const creditNotes = wire.creditNotes as Json[];
const contacts = wire.contacts as Json[];

describe('generateData', () => {
  it('given the same seed twice, when data is generated, then every observable field is identical', () => {
    expect(observable(generateData({ seed: 1 }))).toEqual(wire);
    expect(observable(generateData({ seed: 'acme', records: 50 }))).toEqual(
      observable(generateData({ seed: 'acme', records: 50 })),
    );
  });

  it('given different seeds, when data is generated, then the data differs', () => {
    expect(observable(generateData({ seed: 2 }))).not.toEqual(wire);
  });

  it('given more invoices requested, when data is generated, then the contacts stay the same (each part has its own random stream)', () => {
    const a = observable(generateData({ seed: 5, records: 20 }));
    const b = observable(generateData({ seed: 5, records: 40 }));
    expect((a.contacts as Json[]).map((c) => c.contact_id)).toEqual((b.contacts as Json[]).map((c) => c.contact_id));
  });

  it('given defaults, when data is generated, then there are 500 invoices, 80 customers plus vendors and 60 credit notes in an INR, Asia/Kolkata, KA organisation', () => {
    expect(invoices).toHaveLength(500);
    expect(contacts.filter((c) => c.contact_type === 'customer')).toHaveLength(80);
    expect(contacts.filter((c) => c.contact_type === 'vendor').length).toBeGreaterThan(0);
    expect(creditNotes).toHaveLength(60);
    expect(data.organization).toMatchObject({
      organization_id: '60012345678',
      base_currency: 'INR',
      time_zone: 'Asia/Kolkata',
      offsetMinutes: 330,
      state_code: 'KA',
    });
  });

  it('given every id in the data, when inspected, then ids are unique 16–17 digit strings and some exceed Number.MAX_SAFE_INTEGER', () => {
    const ids: unknown[] = [
      ...invoices.flatMap((i) => [i.invoice_id, ...(i.line_items as Json[]).map((l) => l.line_item_id)]),
      ...creditNotes.flatMap((c) => [c.creditnote_id, ...(c.line_items as Json[]).map((l) => l.line_item_id)]),
      ...contacts.flatMap((c) => [c.contact_id, ...(c.contact_persons as Json[]).map((p) => p.contact_person_id)]),
      ...data.taxes.all.map((t) => t.tax_id),
    ];
    for (const id of ids) expect(id).toMatch(/^\d{16,17}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.some((id) => BigInt(id as string) > BigInt(Number.MAX_SAFE_INTEGER))).toBe(true);
    expect(ids.some((id) => (id as string).length === 16)).toBe(true);
  });

  it('given timestamps, when inspected, then they read yyyy-MM-ddTHH:mm:ss+0530, invoices fall in the range, created ≤ modified, and several records share one second', () => {
    const stamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0530$/;
    for (const r of [...invoices, ...contacts]) {
      expect(r.created_time).toMatch(stamp);
      expect(r.last_modified_time).toMatch(stamp);
      expect(String(r.created_time) <= String(r.last_modified_time)).toBe(true);
    }
    for (const c of creditNotes) expect(c.updated_time).toMatch(stamp);
    for (const i of invoices) expect(String(i.date) >= '2025-01-01' && String(i.date) <= '2025-12-31').toBe(true);
    const bySecond = new Map<unknown, number>();
    for (const i of invoices) bySecond.set(i.last_modified_time, (bySecond.get(i.last_modified_time) ?? 0) + 1);
    expect(Math.max(...bySecond.values())).toBeGreaterThanOrEqual(3);
    const created = new Map<unknown, number>();
    for (const i of invoices) created.set(i.created_time, (created.get(i.created_time) ?? 0) + 1);
    expect([...created.values()].filter((n) => n > 1).length).toBeGreaterThan(5);
  });

  it('given a custom date range, when data is generated, then invoice dates stay inside it', () => {
    const d = generateData({ seed: 3, records: 100, from: '2024-03-01', to: '2024-03-31' });
    for (const i of d.invoices) expect(i.date >= '2024-03-01' && i.date <= '2024-03-31').toBe(true);
  });

  it('given the invoices, when their features are tallied, then every scenario the connector must handle is present', () => {
    const statuses = new Set(invoices.map((i) => i.status));
    for (const s of ['draft', 'sent', 'overdue', 'partially_paid', 'paid', 'void']) expect(statuses).toContain(s);
    const has = (pred: (i: Json) => boolean) => invoices.some(pred);
    expect(has((i) => i.currency_code === 'USD' && Number(i.exchange_rate) > 80)).toBe(true);
    expect(has((i) => i.currency_code === 'EUR' && Number(i.exchange_rate) > 80)).toBe(true);
    expect(
      has(
        (i) => i.discount_type === 'item_level' && (i.line_items as Json[]).some((l) => typeof l.discount === 'string'),
      ),
    ).toBe(true);
    expect(
      has(
        (i) =>
          i.discount_type === 'item_level' &&
          (i.line_items as Json[]).some((l) => typeof l.discount === 'number' && l.discount > 0),
      ),
    ).toBe(true);
    expect(has((i) => i.discount_type === 'entity_level' && i.is_discount_before_tax === true)).toBe(true);
    expect(has((i) => i.discount_type === 'entity_level' && i.is_discount_before_tax === false)).toBe(true);
    expect(has((i) => Number(i.shipping_charge) > 0)).toBe(true);
    expect(has((i) => Number(i.adjustment) < 0)).toBe(true);
    expect(has((i) => Number(i.adjustment) > 0)).toBe(true);
    expect(has((i) => Number(i.write_off_amount) > 0)).toBe(true);
    expect(has((i) => Number(i.credits_applied) > 0)).toBe(true);
    expect(has((i) => (i.taxes as Json[]).some((t) => t.tax_name === 'Cess12'))).toBe(true);
    expect(has((i) => (i.line_items as Json[]).some((l) => !Number.isInteger(l.quantity)))).toBe(true);
    expect(new Set(creditNotes.map((c) => c.status))).toEqual(new Set(['open', 'closed', 'void', 'draft']));
  });

  it('given customers, when inspected, then GSTINs are 15 characters with the state code prefix and a valid check character, and overseas customers bill in USD or EUR', () => {
    const stateGst: Record<string, string> = {
      KA: '29',
      TN: '33',
      MH: '27',
      DL: '07',
      TS: '36',
      GJ: '24',
      KL: '32',
      UP: '09',
      WB: '19',
      HR: '06',
      RJ: '08',
    };
    for (const c of contacts) {
      if (c.gst_treatment === 'business_gst') {
        const gstin = String(c.gst_no);
        expect(gstin).toMatch(/^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/);
        expect(gstin.slice(0, 2)).toBe(stateGst[String(c.place_of_contact)]);
        expect(gstinCheckCharacter(gstin.slice(0, 14))).toBe(gstin.charAt(14));
      }
      if (c.gst_treatment === 'overseas') {
        expect(['USD', 'EUR']).toContain(c.currency_code);
        expect(c.gst_no).toBe('');
      } else expect(c.currency_code).toBe('INR');
      expect((c.contact_persons as Json[]).length).toBeGreaterThan(0);
      expect(['active', 'inactive']).toContain(c.status);
    }
    expect(contacts.some((c) => c.status === 'inactive')).toBe(true);
    expect(contacts.some((c) => c.customer_sub_type === 'individual')).toBe(true);
    // A GSTIN published as a worked example of the check digit.
    expect(gstinCheckCharacter('27AAPFU0939F1Z')).toBe('V');
  });

  it('given every number in the wire JSON, when inspected, then amounts have at most 2 decimals (only rates and percentages may have more)', () => {
    const free = new Set(['exchange_rate', 'tax_percentage', 'quantity', 'discount_percent', 'tax_group_percentage']);
    const bad: string[] = [];
    const walk = (value: unknown, path: string, key: string): void => {
      if (typeof value === 'number' && !free.has(key) && !/^-?\d+(\.\d{1,2})?$/.test(String(value)))
        bad.push(`${path}=${value}`);
      else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`, key));
      else if (value && typeof value === 'object')
        for (const [k, v] of Object.entries(value)) walk(v, `${path}.${k}`, k);
    };
    walk({ invoices, creditNotes, contacts }, '', '');
    expect(bad).toEqual([]);
  });

  it('given the tax catalog, when inspected, then groups add up their CGST/SGST (and cess) components and IGST taxes are single', () => {
    const byName = new Map(data.taxes.all.map((t) => [t.tax_name, t]));
    const gst18 = byName.get('GST18');
    expect(gst18).toMatchObject({ tax_type: 'tax_group', tax_percentage: 18, tax_specific_type: '' });
    expect(gst18?.components.map((id) => data.taxes.byId(id)?.tax_specific_type).sort()).toEqual(['cgst', 'sgst']);
    for (const name of ['GST5', 'GST12', 'GST28']) expect(byName.get(name)?.tax_type).toBe('tax_group');
    for (const name of ['IGST5', 'IGST12', 'IGST18', 'IGST28'])
      expect(byName.get(name)).toMatchObject({ tax_type: 'tax', tax_specific_type: 'igst' });
    expect(byName.get('Cess12')).toMatchObject({ tax_type: 'tax', tax_specific_type: 'cess', tax_percentage: 12 });
    expect(byName.get('GST28+Cess12')?.tax_percentage).toBe(40);
  });
});
