import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../connectors/tally/client.js';
import tally from '../../../connectors/tally/index.js';
import type { SettingsInput } from '../../../connectors/tally/settings.js';
import type { State } from '../../../connectors/tally/streams/state.js';
import { startTallyEmulator, type TallyEmulator } from '../../../sandbox/tally/index.js';
import type { ReadContext, SourceRecord } from '../../../src/connector/types.js';
import { TransientError } from '../../../src/errors/index.js';

/**
 * The Tally streams against the emulator over loopback: the real client, the real XML, no mocks. What
 * a read costs (requests counted by the emulator) is part of the contract: an idle poll is one request.
 */
const silent = pino({ level: 'silent' });
let emu: TallyEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

function ctxFor(e: TallyEmulator, extra: Partial<SettingsInput> = {}): ReadContext {
  const settings = tally.settings.parse({ url: e.url, company: e.companyName, lookupsCacheSeconds: 0, ...extra });
  const http = createClient({
    connectionId: 'tally-read',
    settings,
    tokens: {} as never,
    logger: silent,
    retry: { retries: 0 },
  });
  return { connectionId: 'tally-read', http, logger: silent, until: new Date(), settings };
}

async function readAll(entity: 'invoices' | 'credit-notes' | 'customers', ctx: ReadContext, state: State) {
  const pages: Array<{ records: SourceRecord[]; state: State }> = [];
  for await (const page of tally.streams[entity].read(ctx, state)) pages.push(page as (typeof pages)[number]);
  return { pages, records: pages.flatMap((p) => p.records), last: pages.at(-1)!.state };
}

/** The state the pipeline saves after a whole read: the last page's, its cursor moved to the read's end. */
const checkpointAfter = (last: State, atMs: number): State => ({ ...last, cursor: new Date(atMs).toISOString() });

describe('Tally reads', () => {
  it('given a whole read checkpointed, when nothing changed and the next poll runs, then it costs one request and returns nothing', async () => {
    emu = await startTallyEmulator({ invoices: 20, creditNotes: 4, customers: 6 });
    const ctx = ctxFor(emu);
    const first = await readAll('invoices', ctx, tally.streams.invoices.initialState() as State);
    expect(first.records.length).toBe(emu.store.invoices().length);
    const before = emu.stats().requests;
    const next = await readAll('invoices', ctx, checkpointAfter(first.last, Date.now() + 1));
    expect(next.records).toEqual([]);
    expect(emu.stats().requests - before).toBe(1);
  });

  it('given a checkpoint, when one invoice and one ledger are altered, then the next reads return just those, at their new AlterIDs, in two requests each', async () => {
    emu = await startTallyEmulator({ invoices: 20, creditNotes: 4, customers: 6 });
    const ctx = ctxFor(emu);
    const inv = await readAll('invoices', ctx, { cursor: null });
    const cust = await readAll('customers', ctx, { cursor: null });
    const at = Date.now() + 1;
    const target = emu.store.invoices().find((v) => !v.isCancelled)!;
    emu.store.editVoucher(target.guid, 'altered');
    const ledger = emu.store.editLedger(emu.store.customers()[1]!.guid, 'new@example.in');
    const before = emu.stats().requests;
    const next = await readAll('invoices', ctx, checkpointAfter(inv.last, at));
    expect(next.records.map((r) => [r.id, r.version])).toEqual([[target.guid, new Date(target.alterId).toISOString()]]);
    const customers = await readAll('customers', ctx, checkpointAfter(cust.last, at));
    expect(customers.records.map((r) => r.id)).toEqual([ledger.guid]);
    expect(emu.stats().requests - before).toBe(4);
  });

  it('given a checkpoint rewound before its marks (a repair), when read, then everything is read again', async () => {
    emu = await startTallyEmulator({ invoices: 10, creditNotes: 2, customers: 4 });
    const ctx = ctxFor(emu);
    const first = await readAll('invoices', ctx, { cursor: null });
    const again = await readAll('invoices', ctx, checkpointAfter(first.last, Date.parse('2020-01-01T00:00:00Z')));
    expect(again.records.length).toBe(emu.store.invoices().length);
  });

  it('given rangeSize 4, when a first sync runs, then each request asks for at most 4 AlterIDs and pages resume: a read from a middle page state reads only what is after it', async () => {
    emu = await startTallyEmulator({ invoices: 30, creditNotes: 6, customers: 6 });
    const ctx = ctxFor(emu, { rangeSize: 4 });
    const { pages, records } = await readAll('invoices', ctx, { cursor: null });
    const top = emu.store.alterIds().vouchers;
    const firstVoucher = Math.min(...emu.store.vouchers().map((v) => v.alterId));
    expect(pages.length).toBe(Math.ceil(top / 4));
    expect(Math.max(...pages.map((p) => p.records.length))).toBeLessThanOrEqual(4);
    expect(records.length).toBe(emu.store.invoices().length);
    const middle = pages[Math.floor(pages.length / 2)]!;
    const done = Number(middle.state.resume!.split(':')[1]);
    const rest = await readAll('invoices', ctx, middle.state);
    expect(rest.records.map((r) => r.id).sort()).toEqual(
      emu.store
        .invoices()
        .filter((v) => v.alterId > done)
        .map((v) => v.guid)
        .sort(),
    );
    expect(firstVoucher).toBeGreaterThan(0);
  });

  it('given encoding utf-8 or utf-16, when the same invoices are read, then the records are the same', async () => {
    emu = await startTallyEmulator({ invoices: 8, creditNotes: 2, customers: 4 });
    const utf16 = await readAll('invoices', ctxFor(emu, { encoding: 'utf-16' }), { cursor: null });
    const utf8 = await readAll('invoices', ctxFor(emu, { encoding: 'utf-8' }), { cursor: null });
    expect(utf8.records).toEqual(utf16.records);
  });

  it('given the company closed in Tally, when a read runs, then it fails with a TransientError saying to open the company', async () => {
    emu = await startTallyEmulator({ invoices: 2, creditNotes: 0, customers: 2 });
    emu.setLoaded(false);
    const error = await readAll('invoices', ctxFor(emu), { cursor: null }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransientError);
    expect((error as Error).message).toContain(`the company "${emu.companyName}" is not loaded in TallyPrime`);
  });

  it('given no TallyPrime listening, when a read runs, then it fails with a TransientError (the PC may be off)', async () => {
    emu = await startTallyEmulator({ invoices: 1, creditNotes: 0, customers: 1 });
    const ctx = ctxFor(emu);
    await emu.close();
    emu = undefined;
    const error = await readAll('invoices', ctx, { cursor: null }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransientError);
    expect((error as Error).message).toMatch(/network error/);
  });
});
