import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SourceRecord } from '../../../../src/connector/types.js';
import { invoicesStream } from '../../../../connectors/xero/streams/invoices.js';
import { churn, parseMsDate } from '../../../../sandbox/xero/index.js';
import type { XeroInvoice } from '../../../../connectors/xero/schemas.js';
import type { State } from '../../../../connectors/xero/streams/state.js';
import { latest, readAll, startXeroClients, type XeroClients } from '../support.js';

let h: XeroClients;
beforeAll(async () => {
  h = await startXeroClients({ records: 80 });
});
afterAll(async () => h.close());
beforeEach(async () => {
  await h.reset();
});

const iso = (updated: string) => new Date(parseMsDate(updated)!).toISOString();

/** What the source holds now: ACCREC invoices of the organisation, id → UpdatedDateUTC as ISO. */
function sourceNow(tenant: string, sinceIso = ''): Map<string, string> {
  return new Map(
    h.emu.store
      .invoices(tenant)
      .filter((i) => i.Type === 'ACCREC' && iso(i.UpdatedDateUTC) >= sinceIso)
      .map((i) => [i.InvoiceID, iso(i.UpdatedDateUTC)]),
  );
}

function ctxWith(pageSize: number, extra: Parameters<XeroClients['readCtx']>[2] = {}) {
  const s = h.settings(h.india, { pageSize });
  return h.readCtx(h.client(h.india, { settings: { pageSize } }), s, extra);
}

describe('Xero invoices stream', () => {
  it('given a full read with small pages, then every ACCREC invoice comes back once, with line items, VOIDED as a status and DELETED as a delete, and no bill', async () => {
    const { records, states } = await readAll(invoicesStream, ctxWith(7), invoicesStream.initialState());
    expect(new Set(records.map((r) => r.id)).size).toBe(records.length);
    expect(latest(records)).toEqual(sourceNow(h.india));
    expect(
      records.every((r) => r.raw.Type === 'ACCREC' && Array.isArray(r.raw.LineItems) && r.raw.LineItems.length > 0),
    ).toBe(true);
    const voided = records.filter((r) => r.status === 'VOIDED');
    const deleted = records.filter((r) => r.status === 'DELETED');
    expect(voided.length).toBeGreaterThan(0);
    expect(deleted.length).toBeGreaterThan(0);
    expect(voided.every((r) => r.deleted === undefined)).toBe(true);
    expect(deleted.every((r) => r.deleted === true)).toBe(true);
    // Sorted by the cursor: page states never go backwards.
    const cursors = states.map((s) => s.cursor!);
    expect([...cursors].sort()).toEqual(cursors);
    expect(cursors.at(-1)).toBe([...sourceNow(h.india).values()].sort().at(-1));
  });

  it.each(['after', 'at-or-after'] as const)(
    'given edits, new invoices, a void, a delete, a payment and many changes in the same instant (If-Modified-Since %s), when reading from the last cursor, then every change comes back and none is missed',
    async (mode) => {
      h.emu.configure({ ifModifiedSince: mode });
      const first = await readAll(invoicesStream, ctxWith(7), invoicesStream.initialState());
      const cursor = first.states.at(-1)!.cursor!;
      const t = h.india;
      const store = h.emu.store;
      const open = store
        .invoices(t)
        .filter(
          (i) => i.Type === 'ACCREC' && i.Status === 'AUTHORISED' && i.AmountPaid === 0 && i.AmountCredited === 0,
        );
      const drafts = store.invoices(t).filter((i) => i.Type === 'ACCREC' && i.Status === 'DRAFT');
      // An exact second, so "same second" is the whole second and also the If-Modified-Since boundary.
      h.emu.clock.set({ now: '2026-01-15T10:00:00.000Z', frozen: true });
      store.editInvoice(t, open[0]!.InvoiceID, { reference: 'changed' });
      store.voidInvoice(t, open[1]!.InvoiceID);
      store.deleteInvoice(t, drafts[0]!.InvoiceID);
      store.payInvoice(t, open[2]!.InvoiceID, 1);
      store.createInvoice(t, { lineAmountTypes: 'Inclusive' });
      churn(store, t, 25, true);
      h.emu.clock.set({ advanceMs: 999 });
      store.editInvoice(t, open[3]!.InvoiceID, { lines: true });
      h.emu.clock.set({ advanceMs: 1 });
      store.editInvoice(t, open[4]!.InvoiceID, {});
      const changed = sourceNow(t, cursor);
      expect(changed.size).toBeGreaterThan(14); // more than two pages of 7 in one second

      const second = await readAll(invoicesStream, ctxWith(7), { cursor });
      const got = latest(second.records);
      for (const [id, version] of changed) expect(got.get(id), id).toBe(version);
      expect(second.records.find((r) => r.id === drafts[0]!.InvoiceID)?.deleted).toBe(true);
      expect(second.records.find((r) => r.id === open[1]!.InvoiceID)?.status).toBe('VOIDED');
    },
  );

  it('given records edited while the read pages through them, then the read returns every record (naive page 1..n paging misses one)', async () => {
    const t = h.india;
    const ids = [...sourceNow(t).keys()];
    const edited: string[] = [];
    const editDuringRead = async (
      read: (afterPage: (n: number) => void) => Promise<Array<SourceRecord<XeroInvoice>>>,
    ) => {
      await h.reset();
      const movable = h.emu.store
        .invoices(t)
        .filter((i) => i.Type === 'ACCREC' && i.Status !== 'VOIDED' && i.Status !== 'DELETED');
      let k = 0;
      edited.length = 0;
      // After each page, an invoice from the front of the order (already read) is edited: it moves to the end.
      return read(() => {
        const id = movable[k++]!.InvoiceID;
        h.emu.store.editInvoice(t, id, {});
        edited.push(id);
      });
    };

    const ours = await editDuringRead(async (afterPage) => {
      const out: Array<SourceRecord<XeroInvoice>> = [];
      for await (const page of invoicesStream.read(ctxWith(5), invoicesStream.initialState())) {
        out.push(...page.records);
        afterPage(out.length);
      }
      return out;
    });
    const final = sourceNow(t);
    const got = latest(ours);
    // Every record is read; every edit made while pages were still to come is read at its new version (the
    // edit after the last page lands after the read and is the next run's: its version is above the cursor).
    for (const id of ids) expect(got.has(id), id).toBe(true);
    expect(edited.length).toBeGreaterThan(5);
    for (const id of edited.slice(0, -1)) expect(got.get(id), id).toBe(final.get(id));

    // The same edits against naive offset paging (page 1..n of one query) lose records.
    const naive = await editDuringRead(async (afterPage) => {
      const http = h.client(t);
      const out: Array<SourceRecord<XeroInvoice>> = [];
      for (let page = 1; ; page++) {
        const body = (await http.request({
          path: 'Invoices',
          endpoint: 'GET /Invoices',
          query: {
            where: 'Type=="ACCREC"',
            Statuses: 'DRAFT,SUBMITTED,AUTHORISED,PAID,VOIDED,DELETED',
            order: 'UpdatedDateUTC ASC',
            page,
            pageSize: 5,
          },
          schema: (await import('../../../../connectors/xero/schemas.js')).XeroInvoicesResponse,
        })) as { Invoices: XeroInvoice[] };
        out.push(...body.Invoices.map((i) => ({ id: i.InvoiceID, version: iso(i.UpdatedDateUTC), raw: i })));
        afterPage(out.length);
        if (body.Invoices.length < 5) return out;
      }
    });
    const naiveIds = new Set(naive.map((r) => r.id));
    expect(ids.filter((id) => !naiveIds.has(id)).length).toBeGreaterThan(0);
  });

  it('given more than 1000 invoices changed in the same instant, then the window is read whole (one 1000-record page, then a page overlapping it by 100, checked against it) and the page cursor stays at that instant', async () => {
    const t = h.india;
    const before = await readAll(invoicesStream, ctxWith(100), invoicesStream.initialState());
    h.emu.clock.set({ now: '2026-02-01T00:00:00.000Z', frozen: true });
    const created = h.emu.store.batch(() =>
      Array.from({ length: 1005 }, () => h.emu.store.createInvoice(t, { lineAmountTypes: 'NoTax' }).InvoiceID),
    );
    const ctx = ctxWith(100);
    const queries: unknown[] = [];
    const request = ctx.http.request.bind(ctx.http);
    ctx.http.request = ((req: Parameters<typeof request>[0]) => {
      queries.push({ page: req.query?.page, pageSize: req.query?.pageSize });
      return request(req);
    }) as typeof request;
    const { records, states } = await readAll(invoicesStream, ctx, before.states.at(-1)!);
    const got = new Set(records.map((r) => r.id));
    expect(created.every((id) => got.has(id))).toBe(true);
    // 100 from the old cursor, 100 stuck in the instant, the whole instant as one page of 1000, then records
    // 900.. as page 2 of 900: its first 100 were read already, which shows nothing shifted in between.
    expect(queries).toEqual([
      { page: 1, pageSize: 100 },
      { page: 1, pageSize: 100 },
      { page: 1, pageSize: 1000 },
      { page: 2, pageSize: 900 },
    ]);
    expect(states.at(-1)!.cursor).toBe('2026-02-01T00:00:00.000Z');
  });

  it.each([5, 150])(
    'given more than 1000 invoices in one instant and %i edits to already-read ones while the read pages by offset (fewer or more than the 100-record overlap), then the overlap check still finds every record',
    async (edits) => {
      const t = h.india;
      const before = await readAll(invoicesStream, ctxWith(100), invoicesStream.initialState());
      // Each case in an instant of its own, later than every record before it.
      h.emu.clock.set({ now: new Date(Date.UTC(2026, 1, 2) + edits * 86_400_000).toISOString(), frozen: true });
      const created = h.emu.store.batch(() =>
        Array.from({ length: 1200 }, () => h.emu.store.createInvoice(t, { lineAmountTypes: 'NoTax' }).InvoiceID),
      );
      const out: Array<SourceRecord<XeroInvoice>> = [];
      let edited: string[] = [];
      for await (const page of invoicesStream.read(ctxWith(100), before.states.at(-1)!)) {
        out.push(...page.records);
        if (edited.length === 0 && page.records.length >= 900) {
          // Already-read invoices change 5 s later: they leave the window and everything after them shifts.
          h.emu.clock.set({ advanceSeconds: 5 });
          edited = created.slice(0, edits);
          for (const id of edited) h.emu.store.editInvoice(t, id, {});
        }
      }
      const got = latest(out);
      expect(created.every((id) => got.has(id))).toBe(true);
      const final = sourceNow(t);
      for (const id of edited) expect(got.get(id)).toBe(final.get(id));
    },
  );

  it('given a resume from a page state in the middle of a read, then the rest of the records come back', async () => {
    const ctx = ctxWith(6);
    const firstPages: State[] = [];
    const seen: Array<SourceRecord<XeroInvoice>> = [];
    for await (const page of invoicesStream.read(ctx, invoicesStream.initialState())) {
      seen.push(...page.records);
      firstPages.push(page.state);
      if (firstPages.length === 3) break;
    }
    const rest = await readAll(invoicesStream, ctx, firstPages.at(-1)!);
    expect(latest([...seen, ...rest.records])).toEqual(sourceNow(h.india));
  });

  it('given `until` before the latest changes, then newer records are left for the next run and the cursor stays at or before until', async () => {
    const all = [...sourceNow(h.india).values()].sort();
    const until = all[Math.floor(all.length / 2)]!;
    const { records, states } = await readAll(
      invoicesStream,
      ctxWith(7, { until: new Date(until) }),
      invoicesStream.initialState(),
    );
    expect(records.every((r) => r.version <= until)).toBe(true);
    expect(records.length).toBe(all.filter((v) => v <= until).length);
    expect(states.every((s) => s.cursor! <= until)).toBe(true);
  });

  it('given a backfill window, then only invoices dated inside it are read (Date>=DateTime AND Date<=DateTime)', async () => {
    const window = { from: '2025-01-01', to: '2025-01-31' };
    const { records } = await readAll(invoicesStream, ctxWith(7, { window }), invoicesStream.initialState());
    const expected = h.emu.store
      .invoices(h.india)
      .filter((i) => i.Type === 'ACCREC' && i.DateString >= '2025-01-01' && i.DateString <= '2025-01-31T23:59:59');
    expect(records.length).toBe(expected.length);
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((r) => r.raw.DateString! >= '2025-01-01' && r.raw.DateString! < '2025-02-01')).toBe(true);
    expect(invoicesStream.supportsWindow).toBe(true);
  });

  it('given a first read and a backfill window, then every page carries the total Xero announced on its first answer (pagination.itemCount): the records the read hands out', async () => {
    for (const extra of [{}, { window: { from: '2025-01-01', to: '2025-01-31' } }]) {
      let n = 0;
      const announced: Array<number | undefined> = [];
      for await (const page of invoicesStream.read(ctxWith(7, extra), invoicesStream.initialState())) {
        n += page.records.length;
        announced.push(page.announcedTotal);
      }
      expect(announced.length).toBeGreaterThan(1);
      expect(new Set(announced)).toEqual(new Set([n]));
    }
  });
});
