import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startZohoEmulator, type ZohoEmulator } from '../../../sandbox/zoho-books/index.js';
import { checkDocument, paise, type TaxInfo } from './wire-arithmetic.js';
import { accessToken, admin, booksGet, listAll } from './zoho-test-client.js';

type Json = Record<string, unknown>;

let emu: ZohoEmulator;
let token: string;
beforeEach(async () => {
  // 2026-03-02T09:15:30Z = 14:45:30 IST.
  emu = await startZohoEmulator({
    records: 120,
    customers: 20,
    creditNotes: 20,
    ratePerMinute: 0,
    clock: { now: '2026-03-02T09:15:30Z', frozen: true },
  });
  token = await accessToken(emu);
});
afterEach(() => emu.close());

const NOW = '2026-03-02T14:45:30+0530';
const taxes = () => new Map<string, TaxInfo>(emu.store.taxes.all.map((t) => [t.tax_id, { ...t }]));
const detail = async (id: string) => (await booksGet(emu, token, `/invoices/${id}`)).body.invoice as Json;
const pick = (status: string) => {
  const inv = emu.store.invoices().find((i) => i.status === status);
  if (!inv) throw new Error(`no ${status} invoice`);
  return inv.invoice_id;
};

describe('Zoho emulator mutations', () => {
  it('given a sent invoice, when it is voided, then the record stays (status void, totals kept) with last_modified_time = the emulator now, and shows under status=void', async () => {
    const id = pick('overdue');
    const before = await detail(id);
    const r = await admin(emu, 'POST', 'mutate', [{ op: 'void_invoice', invoice_id: id }]);
    expect(r.status).toBe(200);
    expect(r.body.results).toEqual([{ op: 'void_invoice', id, last_modified_time: NOW }]);
    const after = await detail(id);
    expect(after).toMatchObject({ status: 'void', total: before.total, last_modified_time: NOW });
    const voids = await listAll(emu, token, '/invoices', 'invoices', { status: 'void' });
    expect(voids.map((v) => v.invoice_id)).toContain(id);
  });

  it('given an invoice, when it is hard-deleted, then its detail answers 404 code 1002 and no list shows it (no tombstone)', async () => {
    const id = pick('sent');
    await admin(emu, 'POST', 'mutate', [{ op: 'delete_invoice', invoice_id: id }]);
    expect(await booksGet(emu, token, `/invoices/${id}`)).toMatchObject({
      status: 404,
      body: { code: 1002, message: 'Invoice does not exist.' },
    });
    const all = await listAll(emu, token, '/invoices', 'invoices');
    expect(all).toHaveLength(119);
    expect(all.some((x) => x.invoice_id === id)).toBe(false);
    expect(
      (await listAll(emu, token, '/invoices', 'invoices', { status: 'void' })).some((x) => x.invoice_id === id),
    ).toBe(false);
  });

  it('given a paid invoice, when voided or deleted without force, then 400 and nothing changes; with force the payments are removed first', async () => {
    const id = pick('paid');
    const refused = await admin(emu, 'POST', 'mutate', [{ op: 'delete_invoice', invoice_id: id }]);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 2 });
    expect((await booksGet(emu, token, `/invoices/${id}`)).status).toBe(200);
    await admin(emu, 'POST', 'mutate', [{ op: 'void_invoice', invoice_id: id, force: true }]);
    expect(await detail(id)).toMatchObject({ status: 'void', payment_made: 0, credits_applied: 0 });
  });

  it('given an invoice, when edited, then amounts change consistently and last_modified_time is bumped', async () => {
    const id = pick('overdue');
    const before = await detail(id);
    await admin(emu, 'POST', 'clock', { advanceSeconds: 125 });
    const r = await admin(emu, 'POST', 'mutate', [{ op: 'edit_invoice', invoice_id: id }]);
    expect((r.body.results as Json[])[0]?.last_modified_time).toBe('2026-03-02T14:47:35+0530');
    const after = await detail(id);
    expect(after.last_modified_time).toBe('2026-03-02T14:47:35+0530');
    expect((after.line_items as Json[])[0]?.quantity).toBe(Number((before.line_items as Json[])[0]?.quantity) + 1);
    expect(Number(after.total)).toBeGreaterThan(Number(before.total));
    expect(checkDocument(after, taxes(), 'edited').problems).toEqual([]);
    expect(after.created_time).toBe(before.created_time);
  });

  it('given explicit line, shipping and adjustment changes, when applied, then the detail recomputes exactly', async () => {
    const id = pick('overdue');
    const before = await detail(id);
    const lineId = String((before.line_items as Json[])[0]?.line_item_id);
    await emu.store.editInvoice(id, {
      lines: [{ line_item_id: lineId, quantity: 2.5, rate: 1234.56 }],
      shipping_charge: 150,
      adjustment: -0.4,
      add_line: { quantity: 1, rate: 999.99 },
      reference_number: 'PO-EDIT',
    });
    const after = await detail(id);
    expect((after.line_items as Json[])[0]).toMatchObject({ quantity: 2.5, rate: 1234.56, item_total: 3086.4 });
    expect(after).toMatchObject({ shipping_charge: 150, adjustment: -0.4, reference_number: 'PO-EDIT' });
    expect((after.line_items as Json[]).length).toBe((before.line_items as Json[]).length + 1);
    expect(checkDocument(after, taxes(), 'edited').problems).toEqual([]);
  });

  it('given an overdue invoice, when a partial then a final payment are recorded, then it goes partially_paid then paid with matching payment_made and balance', async () => {
    const id = pick('overdue');
    const total = paise((await detail(id)).total, 'total', []);
    await emu.store.recordPayment(id, { amount: 100 });
    const partial = await detail(id);
    expect(partial).toMatchObject({ status: 'partially_paid', payment_made: 100, last_payment_date: '2026-03-02' });
    expect(paise(partial.balance, 'b', [])).toBe(total - 10000n);
    await emu.store.recordPayment(id);
    expect(await detail(id)).toMatchObject({ status: 'paid', balance: 0 });
    expect((await admin(emu, 'POST', 'mutate', [{ op: 'record_payment', invoice_id: id, amount: 1 }])).status).toBe(
      400,
    );
  });

  it('given three invoices edited in one batch, when read back, then they share one last_modified_time second and a last_modified_time filter at that second returns all three', async () => {
    const ids = emu.store
      .invoices()
      .filter((i) => i.status === 'overdue' || i.status === 'sent')
      .slice(0, 3)
      .map((i) => i.invoice_id);
    const results = emu.store.editInvoicesInSameSecond(ids);
    expect(new Set(results.map((r) => r.last_modified_time))).toEqual(new Set([NOW]));
    const since = await listAll(emu, token, '/invoices', 'invoices', { last_modified_time: NOW });
    expect(since.map((r) => r.invoice_id).sort()).toEqual([...ids].sort());
    expect(
      await listAll(emu, token, '/invoices', 'invoices', { last_modified_time: '2026-03-02T14:45:31+0530' }),
    ).toEqual([]);
  });

  it('given a batch stamped with `at`, when applied, then every op gets that second', async () => {
    const [a, b] = emu.store.invoices().filter((i) => i.status === 'overdue');
    const r = await admin(emu, 'POST', 'mutate', {
      at: '2026-03-01T00:00:00.750Z',
      ops: [
        { op: 'touch', entity: 'invoice', id: a?.invoice_id },
        { op: 'edit_invoice', invoice_id: b?.invoice_id, changes: { notes: 'x' } },
      ],
    });
    expect((r.body.results as Json[]).map((x) => x.last_modified_time)).toEqual([
      '2026-03-01T05:30:00+0530',
      '2026-03-01T05:30:00+0530',
    ]);
  });

  it('given a batch whose second op fails, when applied, then nothing from the batch is kept', async () => {
    const id = pick('overdue');
    const before = await detail(id);
    const r = await admin(emu, 'POST', 'mutate', [
      { op: 'void_invoice', invoice_id: id },
      { op: 'delete_invoice', invoice_id: '1' },
    ]);
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: 1002 });
    expect(await detail(id)).toEqual(before);
    const created = await admin(emu, 'POST', 'mutate', [
      { op: 'create_invoice' },
      { op: 'edit_contact', contact_id: '1' },
    ]);
    expect(created.status).toBe(404);
    expect(emu.store.invoices()).toHaveLength(120);
  });

  it('given create_invoice, when applied, then a new invoice with the next number exists from now on, with consistent amounts', async () => {
    const r = await admin(emu, 'POST', 'mutate', [{ op: 'create_invoice', line_count: 3 }]);
    const created = (r.body.results as Json[])[0] as Json;
    expect(created).toMatchObject({ op: 'create_invoice', number: 'INV-000121', last_modified_time: NOW });
    const inv = await detail(String(created.id));
    expect(inv).toMatchObject({ invoice_number: 'INV-000121', created_time: NOW, date: '2026-03-02' });
    expect(inv.line_items as Json[]).toHaveLength(3);
    expect(String(created.id)).toMatch(/^\d{17}$/);
    expect(checkDocument(inv, taxes(), 'created').problems).toEqual([]);
  });

  it('given a credit note raised and applied, when the invoice is read, then credits_applied and balance move and both records are bumped', async () => {
    const id = pick('overdue');
    const before = await detail(id);
    const r = await admin(emu, 'POST', 'mutate', [{ op: 'create_credit_note', invoice_id: id }]);
    const cnId = String(((r.body.results as Json[])[0] as Json).id);
    const cn = (await booksGet(emu, token, `/creditnotes/${cnId}`)).body.creditnote as Json;
    const after = await detail(id);
    const applied = paise((cn.invoices as Json[])[0]?.amount, 'a', []);
    expect(paise(after.credits_applied, 'c', [])).toBe(paise(before.credits_applied, 'c', []) + applied);
    expect(paise(after.balance, 'b', [])).toBe(paise(before.balance, 'b', []) - applied);
    expect(after.last_modified_time).toBe(NOW);
    expect(cn.updated_time).toBe(NOW);
    await admin(emu, 'POST', 'mutate', [{ op: 'void_credit_note', creditnote_id: cnId, force: true }]);
    expect((await detail(id)).balance).toBe(before.balance);
  });

  it('given a contact edit, when contacts are listed with last_modified_time, then the contact shows up with the new name', async () => {
    const contact = emu.store.contacts().find((c) => c.contact_type === 'customer');
    await admin(emu, 'POST', 'mutate', [
      { op: 'edit_contact', contact_id: contact?.contact_id, changes: { contact_name: 'Renamed Traders LLP' } },
    ]);
    const rows = await listAll(emu, token, '/contacts', 'contacts', { last_modified_time: NOW });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      contact_id: contact?.contact_id,
      contact_name: 'Renamed Traders LLP',
      last_modified_time: NOW,
    });
  });

  it('given an invalid mutation body, when posted, then 400 names the problem', async () => {
    const r = await admin(emu, 'POST', 'mutate', [{ op: 'explode' }]);
    expect(r.status).toBe(400);
    expect(String(r.body.message)).toContain('op');
  });

  it('given mutations and a changed clock, when POST /__admin/reset, then the seeded data, counters and clock come back', async () => {
    const id = pick('sent');
    await emu.store.deleteInvoice(id);
    await admin(emu, 'POST', 'clock', { now: '2030-01-01T00:00:00Z' });
    const r = await admin(emu, 'POST', 'reset');
    expect(r.body).toMatchObject({ ok: true, refreshCount: 0, records: { invoices: 120 } });
    expect((await admin(emu, 'GET', 'clock')).body).toMatchObject({
      now: '2026-03-02T09:15:30.000Z',
      frozen: true,
      today: '2026-03-02',
    });
    expect(emu.store.invoice(id)).toBeDefined();
    expect((await booksGet(emu, token, '/invoices')).status).toBe(401);
    const bigger = await admin(emu, 'POST', 'reset', { records: 10, seed: 99 });
    expect(bigger.body).toMatchObject({ records: { invoices: 10 } });
  });
});
