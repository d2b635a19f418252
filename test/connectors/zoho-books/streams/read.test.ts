import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceRecord } from '../../../../src/connector/types.js';
import { creditNotesStream } from '../../../../connectors/zoho-books/streams/credit-notes.js';
import { customersStream } from '../../../../connectors/zoho-books/streams/customers.js';
import { invoicesStream } from '../../../../connectors/zoho-books/streams/invoices.js';
import type { State } from '../../../../connectors/zoho-books/streams/state.js';
import { type ZohoClients, mapAll, readAll, startZohoClients } from '../harness.js';

const iso = (ms: number) => new Date(ms).toISOString();

describe('the read loop (streams/read.ts) against the emulator: full reads', () => {
  let h: ZohoClients;
  beforeAll(async () => {
    h = await startZohoClients({ records: 45, customers: 14, creditNotes: 12 });
  });
  afterAll(() => h.close());

  it.each([
    ['invoices', invoicesStream, () => h.emulator.store.invoices().map((i) => i.invoice_id)],
    ['credit-notes', creditNotesStream, () => h.emulator.store.creditNotes().map((c) => c.creditnote_id)],
    [
      'customers',
      customersStream,
      () =>
        h.emulator.store
          .contacts()
          .filter((c) => c.contact_type === 'customer')
          .map((c) => c.contact_id),
    ],
  ] as const)(
    'given a fresh connection, when %s are read in full over several pages, then every record is read exactly once with its detail, and every one maps',
    async (_name, stream, ids) => {
      const { records, pages } = await readAll(
        stream,
        h.context(h.client(), {}, { pageSize: 7 }),
        stream.initialState(),
      );
      expect(pages).toBeGreaterThan(1);
      expect(records.map((r) => r.id).sort()).toEqual([...ids()].sort());
      expect(new Set(records.map((r) => r.id)).size).toBe(records.length);
      const mapped = await mapAll(stream, h, records);
      expect(mapped.filter((m) => !m.result.ok)).toEqual([]);
      if (stream === invoicesStream)
        expect(
          records.every((r) => Array.isArray(r.raw.line_items) && (r.raw.line_items as unknown[]).length > 0),
        ).toBe(true);
    },
  );

  it('given a backfill window, when invoices are read, then only invoices dated in the window are read; customers ignore the window', async () => {
    const window = { from: '2025-03-01', to: '2025-05-31' };
    const { records } = await readAll(invoicesStream, h.context(h.client(), { window }), invoicesStream.initialState());
    const expected = h.emulator.store
      .invoices()
      .filter((i) => i.date >= window.from && i.date <= window.to)
      .map((i) => i.invoice_id);
    expect(expected.length).toBeGreaterThan(0);
    expect(records.map((r) => r.id).sort()).toEqual(expected.sort());
    const customers = await readAll(customersStream, h.context(h.client(), { window }), customersStream.initialState());
    expect(customers.records.length).toBe(
      h.emulator.store.contacts().filter((c) => c.contact_type === 'customer').length,
    );
  });

  it('given invoices hard-deleted in Zoho, when listIds runs, then it yields exactly the ids that still exist, page by page', async () => {
    const victim = h.emulator.store.invoices().find((i) => i.status !== 'void')!;
    h.emulator.store.deleteInvoice(victim.invoice_id, { force: true });
    const pages: string[][] = [];
    for await (const ids of invoicesStream.listIds!(h.context(h.client(), {}, { pageSize: 10 }))) pages.push(ids);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.flat().sort()).toEqual(
      h.emulator.store
        .invoices()
        .map((i) => i.invoice_id)
        .sort(),
    );
    expect(pages.flat()).not.toContain(victim.invoice_id);
    const notes: string[] = [];
    for await (const ids of creditNotesStream.listIds!(h.context(h.client()))) notes.push(...ids);
    expect(notes.sort()).toEqual(
      h.emulator.store
        .creditNotes()
        .map((c) => c.creditnote_id)
        .sort(),
    );
  });
});

describe('the read loop (streams/read.ts) against the emulator: deletes during a read', () => {
  let h: ZohoClients;
  beforeAll(async () => {
    h = await startZohoClients({ records: 20, customers: 8, creditNotes: 2 });
  });
  afterAll(() => h.close());

  it('given an invoice on an already-read page is hard-deleted mid-read, when the rows shift up a place, then the second listing pass still reads the row that crossed the page boundary', async () => {
    const store = h.emulator.store;
    const { records, pages } = await readAll(
      invoicesStream,
      h.context(h.client(), {}, { pageSize: 5 }),
      invoicesStream.initialState(),
      (page) => {
        // Page 1 (oldest first) has been read; delete its first invoice so page 2 starts one row later.
        if (page === 1) {
          const oldest = [...store.invoices()].sort(
            (a, b) => a.createdMs - b.createdMs || (a.invoice_id < b.invoice_id ? -1 : 1),
          )[0]!;
          store.deleteInvoice(oldest.invoice_id, { force: true });
        }
      },
    );
    expect(pages).toBe(4 + 1); // 4 list pages, then the second pass's page of rows missed the first time
    const read = new Set(records.map((r) => r.id));
    expect(store.invoices().filter((i) => !read.has(i.invoice_id))).toEqual([]);
  });
});

describe('the read loop (streams/read.ts) against the emulator: incremental reads', () => {
  let h: ZohoClients;
  beforeAll(async () => {
    h = await startZohoClients({ records: 30, customers: 10, creditNotes: 6 });
  });
  afterAll(() => h.close());

  it('given edits, new invoices, voids and payments (several in one second) before and during reads, when reads follow the pipeline (cursor = previous until, no lookback), then the latest version of every change is read', async () => {
    const store = h.emulator.store;
    const client = h.client();
    let cursor: string | null = null;
    const seen = new Map<string, SourceRecord<Record<string, unknown>>>();
    const run = async (duringRead?: (until: Date) => void) => {
      const until = new Date();
      const state: State = invoicesStream.initialState(cursor ?? undefined);
      const { records } = await readAll(
        invoicesStream,
        h.context(client, { until }, { pageSize: 4 }),
        state,
        (page) => {
          if (page === 1) duringRead?.(until);
        },
      );
      for (const r of records) if (!seen.has(r.id) || seen.get(r.id)!.version <= r.version) seen.set(r.id, r);
      cursor = until.toISOString();
      return records;
    };

    const full = await run();
    expect(full.length).toBe(30);

    // Before the next read: one batch, all stamped in the very second of the saved cursor (the classic
    // trap for an exclusive or millisecond-precise lower bound).
    const open = store.invoices().filter((i) => !['void', 'draft', 'paid'].includes(i.status));
    const payable = open.filter((i) => i.status !== 'draft')[0]!;
    const toVoid = store.invoices().find((i) => i.status !== 'void' && i.invoice_id !== payable.invoice_id)!;
    const edited = open
      .filter((i) => i.invoice_id !== payable.invoice_id && i.invoice_id !== toVoid.invoice_id)
      .slice(0, 3);
    const batchA = store.mutate(
      [
        ...edited.map((i) => ({ op: 'edit_invoice' as const, invoice_id: i.invoice_id })),
        { op: 'create_invoice' as const },
        { op: 'create_invoice' as const, draft: true },
        { op: 'void_invoice' as const, invoice_id: toVoid.invoice_id, force: true },
        { op: 'record_payment' as const, invoice_id: payable.invoice_id, amount: 1 },
      ],
      { at: cursor! },
    );
    expect(new Set(batchA.map((r) => r.last_modified_time)).size).toBe(1);
    expect(batchA.length).toBe(edited.length + 4);

    // During the next read (after its first page): more edits, again in one second: that read's own `until`.
    const changedA = new Set(batchA.map((r) => r.id));
    const laterTargets = store
      .invoices()
      .filter((i) => i.status !== 'void' && !changedA.has(i.invoice_id))
      .slice(0, 3);
    let batchB: { id: string }[] = [];
    const second = await run((until) => {
      batchB = store.mutate(
        laterTargets.map((i) => ({ op: 'edit_invoice' as const, invoice_id: i.invoice_id })),
        { at: until },
      );
    });
    expect(second.map((r) => r.id)).toEqual(expect.arrayContaining([...changedA]));
    // Nothing untouched is re-read: the filter works.
    const touched = new Set([...changedA, ...batchB.map((r) => r.id)]);
    expect(second.filter((r) => !touched.has(r.id))).toEqual([]);

    await run();
    for (const id of touched) {
      const inv = store.invoice(id)!;
      expect(seen.get(id)?.version, `invoice ${id}`).toBe(iso(inv.modifiedMs));
      expect(seen.get(id)?.status).toBe(inv.status);
    }
    expect(seen.get(toVoid.invoice_id)?.status).toBe('void');
    expect(seen.size).toBe(store.invoices().length);
  });

  it('given a cursor, when the list is requested, then last_modified_time is sent in the organisation offset (+0530) and URL-encoded', async () => {
    const requested: string[] = [];
    const client = h.client();
    const original = client.request.bind(client);
    client.request = ((req: Parameters<typeof original>[0]) => {
      if (req.path === 'invoices') requested.push(String(req.query?.last_modified_time));
      return original(req);
    }) as typeof client.request;
    await readAll(invoicesStream, h.context(client), invoicesStream.initialState('2025-06-30T18:29:59.999Z'));
    expect(requested[0]).toBe('2025-06-30T23:59:59+0530');
    // The emulator answers 400 (code 2) for an unencoded "+", so a successful read proves %2B on the wire.
  });
});

describe('the read loop (streams/read.ts): rows the pipeline already holds', () => {
  let h: ZohoClients;
  beforeAll(async () => {
    h = await startZohoClients({ records: 30, customers: 6, creditNotes: 0 });
  });
  afterAll(() => h.close());

  it('given the pipeline holds every invoice at its listed modification time, when read again, then only the list pages are called and every row is counted as skipped; one edited a second later is fetched', async () => {
    const first = await readAll(
      invoicesStream,
      h.context(h.client(), {}, { pageSize: 10 }),
      invoicesStream.initialState(),
    );
    const held = new Map(first.records.map((r) => [r.id, r.version]));
    const knownVersions = async (_entity: string, ids: readonly string[]) => ids.map((id) => held.get(id));
    const read = async () => {
      const before = h.emulator.stats().requestCount;
      let skipped = 0;
      const records: SourceRecord<Record<string, unknown>>[] = [];
      for await (const page of invoicesStream.read(
        h.context(h.client(), { knownVersions, until: new Date(Date.now() + 60_000) }, { pageSize: 10 }),
        invoicesStream.initialState(),
      )) {
        records.push(...page.records);
        skipped += page.knownSkipped ?? 0;
      }
      return { records, skipped, calls: h.emulator.stats().requestCount - before };
    };

    const again = await read();
    expect(again.records).toEqual([]);
    expect(again.skipped).toBe(30);
    // 3 list pages and the second listing pass (3 more): no detail GET.
    expect(again.calls).toBe(6);

    const edited = h.emulator.store.invoices()[4]!.invoice_id;
    h.emulator.clock.set({ advanceSeconds: 5 });
    h.emulator.store.editInvoice(edited);
    const after = await read();
    expect(after.records.map((r) => r.id)).toEqual([edited]);
    expect(after.skipped).toBe(29);
  });
});
