import { afterEach, describe, expect, it } from 'vitest';
import { toInvoice } from '../../../../connectors/quickbooks/map/invoice.js';
import { invoicesStream } from '../../../../connectors/quickbooks/streams/invoices.js';
import type { State } from '../../../../connectors/quickbooks/streams/state.js';
import type { RunningQuickBooksEmulator } from '../../../../sandbox/quickbooks/index.js';
import { type QuickBooksClients, startQuickBooksClients, latestById, readAll, T0 } from '../harness.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** id → LastUpdatedTime (UTC ISO) of every invoice the sandbox holds now. */
function storeVersions(emu: RunningQuickBooksEmulator): Map<string, string> {
  return new Map([...emu.store.docs.Invoice.values()].map((d) => [d.id, iso(d.lastUpdated)]));
}

function byTime(emu: RunningQuickBooksEmulator) {
  return [...emu.store.docs.Invoice.values()].sort(
    (a, b) => a.lastUpdated - b.lastUpdated || Number(a.id) - Number(b.id),
  );
}

/** Checkpoint safety: after any page, every record still to come is at or after that page's cursor. */
function expectCheckpointSafe(pages: Array<{ records: Array<{ version: string; deleted?: boolean }>; state: State }>) {
  pages.forEach((page, i) => {
    const cursor = page.state.cursor;
    if (cursor === null) return;
    for (const later of pages.slice(i + 1))
      for (const r of later.records) if (!r.deleted) expect(r.version >= cursor).toBe(true);
    for (const r of page.records) if (!r.deleted) expect(r.version <= cursor).toBe(true);
  });
}

describe('QuickBooks invoices stream against the sandbox', () => {
  let h: QuickBooksClients | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('given 2,500+ invoices read 1,000 at a time, with 50 sharing one LastUpdatedTime across the page edge, then a full read returns every one, once', async () => {
    h = await startQuickBooksClients({ records: 2640, customers: 30, creditMemos: 20, spanDays: 90 });
    const sorted = byTime(h.emu);
    const edge = sorted[975]!.lastUpdated;
    h.emu.store.touch(
      'Invoice',
      sorted.slice(1500, 1549).map((d) => d.id),
      edge,
    );
    expect([...h.emu.store.docs.Invoice.values()].filter((d) => d.lastUpdated === edge).length).toBeGreaterThanOrEqual(
      50,
    );
    expect(h.emu.store.docs.Invoice.size).toBeGreaterThanOrEqual(2500);

    const { records, pages } = await readAll(invoicesStream, h.ctx(), invoicesStream.initialState());
    const live = records.filter((r) => !r.deleted);
    expect(latestById(live)).toEqual(storeVersions(h.emu));
    expect(new Set(live.map((r) => `${r.id}@${r.version}`)).size).toBe(live.length);
    expect(pages.filter((p) => p.records.some((r) => !r.deleted)).length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...pages.map((p) => p.records.length))).toBeLessThanOrEqual(1000);
    expectCheckpointSafe(pages);
  });

  it('given more records in one second than fit in a page, then the read walks that second by offset and misses none', async () => {
    h = await startQuickBooksClients({ records: 400 }, { pageSize: 100 });
    const ids = byTime(h.emu)
      .slice(50, 300)
      .map((d) => d.id);
    h.emu.store.touch('Invoice', ids, Date.parse(T0) - 86_400_000);
    const { records, pages } = await readAll(invoicesStream, h.ctx(), invoicesStream.initialState());
    expect(latestById(records)).toEqual(storeVersions(h.emu));
    expectCheckpointSafe(pages);
  });

  it('given a second holding more records than a page, when more of its already-read records are edited mid-walk than the overlap (20 against 10), then the read still misses none', async () => {
    h = await startQuickBooksClients({ records: 400 }, { pageSize: 100 });
    const crowded = byTime(h.emu)
      .slice(50, 300)
      .map((d) => d.id);
    h.emu.store.touch('Invoice', crowded, Date.parse(T0) - 86_400_000);
    const until = new Date(Date.parse(T0) + 3_600_000); // the edits fall inside this read's window
    const seen = new Set<string>();
    let edited = false;
    const { records, pages } = await readAll(
      invoicesStream,
      h.ctx({ until }),
      invoicesStream.initialState(),
      async (page) => {
        for (const r of page.records) seen.add(r.id);
        const read = crowded.filter((id) => seen.has(id));
        if (edited || read.length < 100) return;
        edited = true;
        h!.emu.store.touch('Invoice', read.slice(0, 20));
      },
    );
    expect(edited).toBe(true);
    expect(latestById(records)).toEqual(storeVersions(h.emu));
    expectCheckpointSafe(pages);
  });

  it('given records edited during the read (already-read ones jump to the end, several in one second), then the same read returns every latest version; plain STARTPOSITION paging would skip some', async () => {
    const edits = async (emu: RunningQuickBooksEmulator, page: number, seen: ReadonlySet<string>) => {
      if (page > 6) return;
      if (page % 2 === 0) emu.clock.set({ advanceSeconds: 1 }); // odd pages: edits in the same second as the last ones
      const read = byTime(emu)
        .filter((d) => seen.has(d.id))
        .slice(0, 3);
      const unread = byTime(emu).find((d) => !seen.has(d.id));
      emu.store.touch(
        'Invoice',
        [...read, ...(unread ? [unread] : [])].map((d) => d.id),
      );
    };
    h = await startQuickBooksClients({ records: 1000 }, { pageSize: 100 });
    const until = new Date(Date.parse(T0) + 3_600_000); // edits fall inside this read's window
    const seen = new Set<string>();
    const { records, pages } = await readAll(
      invoicesStream,
      h.ctx({ until }),
      invoicesStream.initialState(),
      async (page, i) => {
        for (const r of page.records) seen.add(r.id);
        await edits(h!.emu, i, seen);
      },
    );
    expect(latestById(records)).toEqual(storeVersions(h.emu));
    expectCheckpointSafe(pages);

    // The skip is real in the sandbox: the same edits under naive offset paging lose records.
    const naive = await startQuickBooksClients({ records: 1000 });
    try {
      const naiveSeen = new Set<string>();
      for (let start = 1, page = 0; ; start += 100, page++) {
        const statement = `SELECT * FROM Invoice ORDERBY MetaData.LastUpdatedTime STARTPOSITION ${start} MAXRESULTS 100`;
        const res = await naive.http.request({
          path: 'query',
          endpoint: 'naive',
          query: { query: statement },
          schema: (await import('zod')).z.any(),
        });
        const rows = (res.QueryResponse.Invoice ?? []) as Array<{ Id: string }>;
        for (const r of rows) naiveSeen.add(r.Id);
        if (rows.length < 100) break;
        await edits(naive.emu, page, naiveSeen);
      }
      const missed = [...naive.emu.store.docs.Invoice.keys()].filter((id) => !naiveSeen.has(id));
      expect(missed.length).toBeGreaterThan(0);
    } finally {
      await naive.close();
    }
  });

  it('given a full read, then edits, a void, a payment, a new invoice and deletes (several in one second), then the next incremental read returns every change and the deletes as deleted stubs', async () => {
    h = await startQuickBooksClients({ records: 300 });
    const first = await readAll(invoicesStream, h.ctx(), invoicesStream.initialState());
    const cursor = iso(h.emu.clock.now()); // the pipeline saves `until` after a whole read
    expect(latestById(first.records)).toEqual(storeVersions(h.emu));

    h.emu.clock.set({ advanceSeconds: 3600 });
    const docs = byTime(h.emu).filter((d) => !d.voided && d.linked.length === 0);
    const [a, b, c, d, e, f] = docs;
    h.emu.store.editInvoice(a!.id, { privateNote: 'PO changed' });
    h.emu.store.editInvoice(b!.id, { qty: 3 }); // same second as a
    h.emu.store.voidInvoice(c!.id);
    h.emu.store.recordPayment(d!.id, 1);
    const created = h.emu.store.createInvoice({ customerId: a!.customerId });
    h.emu.store.deleteDoc('Invoice', e!.id);
    h.emu.store.deleteDoc('Invoice', f!.id);

    const next = await readAll(invoicesStream, h.ctx(), { cursor });
    const deleted = next.records.filter((r) => r.deleted);
    expect(deleted.map((r) => r.id).sort()).toEqual([e!.id, f!.id].sort());
    expect(deleted.every((r) => r.status === 'Deleted' && r.version === iso(h!.emu.clock.nowSecond()))).toBe(true);
    expect(next.pages[0]!.records.every((r) => r.deleted)).toBe(true);
    expect(next.pages[0]!.state).toEqual({ cursor });
    const live = latestById(next.records);
    for (const doc of [a, b, c, d, created])
      expect(live.get(doc!.id)).toBe(iso(h.emu.store.docs.Invoice.get(doc!.id)!.lastUpdated));
    expect(next.records.find((r) => r.id === c!.id && !r.deleted)?.status).toBe('voided');
    expect(next.records.find((r) => r.id === d!.id && !r.deleted)?.status).toBe('partially_paid');
    expect(live.has(e!.id) || live.has(f!.id)).toBe(false);
  });

  it('given edits while a read runs up to `until`, then what this read leaves out the next one (from until) picks up: nothing is lost between runs', async () => {
    h = await startQuickBooksClients({ records: 500 }, { pageSize: 100 });
    const until = new Date(h.emu.clock.now());
    const first = await readAll(invoicesStream, h.ctx({ until }), invoicesStream.initialState(), (_page, i) => {
      if (i > 3) return;
      // Edits land in the same second as `until` (frozen clock), then one later.
      h!.emu.store.touch(
        'Invoice',
        byTime(h!.emu)
          .slice(0, 2)
          .map((d) => d.id),
      );
      if (i === 3) h!.emu.clock.set({ advanceSeconds: 5 });
    });
    h.emu.clock.set({ advanceSeconds: 60 });
    const second = await readAll(invoicesStream, h.ctx(), { cursor: until.toISOString() });
    expect(latestById([...first.records, ...second.records])).toEqual(storeVersions(h.emu));
  });

  it('given more than 1,000 changes inside the CDC window, then the saturated CDC answer is walked forward and every delete is found', async () => {
    h = await startQuickBooksClients({ records: 1300, spanDays: 25, creditMemos: 0 });
    const since = iso(Date.parse(T0) - 24 * 86_400_000);
    const expected = h.emu.store.deleted.filter((s) => s.deletedAt >= Date.parse(since)).map((s) => s.id);
    expect(expected.length).toBeGreaterThan(10);
    const before = h.emu.stats().cdcCalls;
    const { records } = await readAll(invoicesStream, h.ctx(), { cursor: since });
    expect(
      records
        .filter((r) => r.deleted)
        .map((r) => r.id)
        .sort(),
    ).toEqual([...expected].sort());
    expect(h.emu.stats().cdcCalls - before).toBeGreaterThanOrEqual(2);
  });

  it('given a backfill window, then only invoices dated inside it (TxnDate), and no CDC call', async () => {
    h = await startQuickBooksClients({ records: 200 });
    const window = { from: '2025-01-20', to: '2025-02-05' };
    const before = h.emu.stats().cdcCalls;
    const { records } = await readAll(invoicesStream, h.ctx({ window }), invoicesStream.initialState());
    const expected = [...h.emu.store.docs.Invoice.values()]
      .filter((d) => d.txnDate >= window.from && d.txnDate <= window.to)
      .map((d) => d.id);
    expect(expected.length).toBeGreaterThan(0);
    expect([...latestById(records).keys()].sort()).toEqual(expected.sort());
    expect(h.emu.stats().cdcCalls).toBe(before);
  });

  it('given a cursor older than the 30-day CDC window, then CDC is asked from the window start (no 400) and the gap is logged for reconciliation', async () => {
    h = await startQuickBooksClients({ records: 50 });
    const lines: string[] = [];
    const logger = (await import('pino')).default({ level: 'warn' }, { write: (s: string) => void lines.push(s) });
    const { records } = await readAll(invoicesStream, h.ctx({ logger }), {
      cursor: iso(Date.parse(T0) - 45 * 86_400_000),
    });
    expect(records.length).toBeGreaterThan(0);
    expect(lines.join('\n')).toMatch(/older than the 30-day CDC window/);
  });

  it('given listIds while invoices are deleted mid-listing, then every invoice that still exists is listed (voided ones too)', async () => {
    h = await startQuickBooksClients({ records: 500 }, { pageSize: 100 });
    const listed = new Set<string>();
    let pages = 0;
    for await (const ids of invoicesStream.listIds!(h.ctx())) {
      for (const id of ids) listed.add(id);
      if (pages++ === 0) for (const id of ids.slice(0, 5)) h.emu.store.deleteDoc('Invoice', id);
    }
    const live = [...h.emu.store.docs.Invoice.keys()];
    expect(live.every((id) => listed.has(id))).toBe(true);
    expect([...h.emu.store.docs.Invoice.values()].some((d) => d.voided && listed.has(d.id))).toBe(true);
  });

  it("given a company whose invoices carry a class, a department and QBO Advanced's enhanced custom fields, when invoices are read and mapped, then the read asks for every custom field (include=enhancedAllCustomFields) and each invoice's tags hold its class, department and every custom field with a value", async () => {
    h = await startQuickBooksClients({ records: 40, customers: 6, creditMemos: 0, spanDays: 30 });
    const { records } = await readAll(invoicesStream, h.ctx(), invoicesStream.initialState());
    const lookups = (await invoicesStream.lookups!(h.ctx())) as Record<string, unknown>;
    const ctx = { connectionId: 'qbo-test', originSource: 'EXTERNAL_SYSTEM_B' as const, baseCurrency: 'INR', lookups };
    let enhanced = 0;
    for (const record of records.filter((r) => !r.deleted)) {
      const doc = h.emu.store.docs.Invoice.get(record.id)!;
      const result = toInvoice(record, ctx);
      if (!result.ok || result.value.kind !== 'invoice') throw new Error(`${record.id}: not mapped`);
      const expected: Record<string, unknown> = {
        ...(doc.classRef ? { Class: doc.classRef.name } : {}),
        ...(doc.departmentRef ? { Department: doc.departmentRef.name } : {}),
        ...Object.fromEntries(
          (doc.customFields ?? []).map((f) => [f.Name, f.StringValue ?? f.NumberValue ?? f.DateValue]),
        ),
      };
      expect(result.value.invoice.tags ?? {}, record.id).toEqual(expected);
      if (doc.customFields?.some((f) => f.Name === 'Contract months')) enhanced += 1;
    }
    // The generated company has enhanced fields on some invoices: without the include, none would arrive.
    expect(enhanced).toBeGreaterThan(0);
  });
});
