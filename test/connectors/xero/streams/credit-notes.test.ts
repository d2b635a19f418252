import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { creditNotesStream } from '../../../../connectors/xero/streams/credit-notes.js';
import { parseMsDate } from '../../../../sandbox/xero/index.js';
import { latest, mapCtx, readAll, startXeroClients, type XeroClients } from '../support.js';

let h: XeroClients;
beforeAll(async () => {
  h = await startXeroClients({ records: 60, creditNotes: 40 });
});
afterAll(async () => h.close());
beforeEach(async () => {
  await h.reset();
});

const iso = (u: string) => new Date(parseMsDate(u)!).toISOString();
const sourceNow = (since = '') =>
  new Map(
    h.emu.store
      .creditNotes(h.india)
      .filter((c) => c.Type === 'ACCRECCREDIT' && iso(c.UpdatedDateUTC) >= since)
      .map((c) => [c.CreditNoteID, iso(c.UpdatedDateUTC)]),
  );
const ctx = () => h.readCtx(h.client(h.india, { settings: { pageSize: 6 } }), h.settings(h.india, { pageSize: 6 }));

describe('Xero credit notes stream', () => {
  it('given a full read, then every sales credit note comes back (DELETED ones too, asked for in `where`), no supplier credit, and each maps', async () => {
    const c = ctx();
    const lookups = await creditNotesStream.lookups!(c);
    const { records } = await readAll(creditNotesStream, c, creditNotesStream.initialState());
    expect(latest(records)).toEqual(sourceNow());
    expect(records.some((r) => r.deleted === true && r.status === 'DELETED')).toBe(true);
    expect(records.some((r) => r.status === 'VOIDED' && r.deleted === undefined)).toBe(true);
    expect(records.every((r) => r.raw.Type === 'ACCRECCREDIT')).toBe(true);
    const mapped = records.map((r) => creditNotesStream.map(r, mapCtx(c.connectionId, lookups)));
    expect(mapped.filter((m) => !m.ok)).toEqual([]);
    const applied = mapped.flatMap((m) =>
      m.ok && m.value.kind === 'credit-note' ? (m.value.creditNote.appliedToInvoices ?? []) : [],
    );
    expect(applied.length).toBeGreaterThan(0);
  });

  it('given a new credit note allocated to an invoice and a voided one, when reading from the last cursor, then both changes come back', async () => {
    const first = await readAll(creditNotesStream, ctx(), creditNotesStream.initialState());
    const cursor = first.states.at(-1)!.cursor!;
    const t = h.india;
    const target = h.emu.store
      .invoices(t)
      .find((i) => i.Type === 'ACCREC' && i.Status === 'AUTHORISED' && i.AmountDue > 10)!;
    h.emu.clock.set({ now: '2026-03-01T08:00:00.000Z', frozen: true });
    const cn = h.emu.store.createCreditNote(t, { allocateTo: { invoiceId: target.InvoiceID, amount: 10 } });
    const open = h.emu.store
      .creditNotes(t)
      .find(
        (c) =>
          c.Type === 'ACCRECCREDIT' &&
          c.Status === 'AUTHORISED' &&
          c.Allocations.length === 0 &&
          c.CreditNoteID !== cn.CreditNoteID,
      )!;
    h.emu.store.voidCreditNote(t, open.CreditNoteID);
    const second = await readAll(creditNotesStream, ctx(), { cursor });
    const got = latest(second.records);
    for (const [id, v] of sourceNow(cursor)) expect(got.get(id)).toBe(v);
    const allocated = second.records.find((r) => r.id === cn.CreditNoteID)!;
    expect(allocated.raw.Allocations?.[0]?.Invoice?.InvoiceID).toBe(target.InvoiceID);
    expect(second.records.find((r) => r.id === open.CreditNoteID)?.status).toBe('VOIDED');
  });
});
