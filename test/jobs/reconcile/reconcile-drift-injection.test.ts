import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runBackfill } from '../../../cli/commands/backfill.js';
import { waitForDrain } from '../../../cli/drain.js';
import { DRIFT_KINDS, type DriftKind } from '../../../jobs/reconcile/drift.js';
import { runReconcile } from '../../../jobs/reconcile/run-reconcile.js';
import type { ReconcileResult } from '../../../jobs/reconcile/types.js';
import type { WorkerService } from '../../../app/worker-service.js';
import { addDays, utcDate } from '../../../src/billing/dates.js';
import { COMPANY, CONNECTION, HISTORY, ORIGIN, type Harness, startHarness } from '../../support/harness.js';

/** The drift a reconcile must report: for each kind, exactly these ERP ids (every other kind: none). */
type Expected = Partial<Record<DriftKind, string[]>>;
type Day = 'yesterday' | 'today' | 'tomorrow';
/** What each mode reports in each of three adjacent one-day windows (a window not named: no drift). */
type ByWindow = { normal?: Partial<Record<Day, Expected>>; deep?: Partial<Record<Day, Expected>> };

/**
 * One drift of each kind injected through the sandboxes (billing's admin endpoints, the Zoho store), on
 * a clean synced connection. Each is reconciled in normal and deep mode in the window where it happened
 * and in the adjacent windows, with exact counts and ERP ids (nothing missed, nothing extra), then
 * repaired (by `--repair`, or by the person's action the kind asks for) and reconciled again: clean.
 */
describe('given a clean synced connection, when one drift of each kind is injected', () => {
  let p: Harness;
  let workers: WorkerService;
  const today = utcDate(Date.now());
  const days: Record<Day, string> = { yesterday: addDays(today, -1), today, tomorrow: addDays(today, 1) };
  const used = new Set<string>();

  const admin = async (path: string, body?: unknown, method = 'POST') => {
    const res = await fetch(`${p.billing.url}/__admin${path}?company=${COMPANY}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`admin ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const billingId = async (erpId: string) => (await p.rt.ledger.get(CONNECTION, 'invoices', erpId))!.billingId;
  const clock = (now: string | null) => admin('/clock', { now });
  const pullInvoices = async () => {
    await p.rt.queues.pull.add('pull', { connectionId: CONNECTION, entity: 'invoices' }, { priority: 1 });
    await waitForDrain(p.rt);
  };
  const reconcile = (day: string, deep: boolean, repair = false) =>
    runReconcile(p.rt, { connectionId: CONNECTION, from: day, to: day, deep, repair });

  /** A synced, posted invoice without payments or credits that no other case has used. */
  const fresh = (): string => {
    const credited = new Set(p.zoho.store.creditNotes().flatMap((c) => c.applications.map((a) => a.invoice_id)));
    const inv = p.zoho.store
      .invoices()
      .find(
        (i) =>
          i.status !== 'void' &&
          i.status !== 'draft' &&
          i.payments.length === 0 &&
          i.writeOffMinor === 0 &&
          !credited.has(i.invoice_id) &&
          !used.has(i.invoice_id),
      );
    if (!inv) throw new Error('no unused invoice left');
    used.add(inv.invoice_id);
    return inv.invoice_id;
  };

  const drift = (r: ReconcileResult): Expected => {
    const out: Expected = {};
    for (const k of DRIFT_KINDS) {
      const ids = r.items.filter((i) => i.kind === k).map((i) => i.erpId ?? `invoiceId:${i.invoiceId}`);
      if (ids.length) out[k] = ids.sort();
    }
    return out;
  };
  const countsOf = (e: Expected) => Object.fromEntries(DRIFT_KINDS.map((k) => [k, e[k]?.length ?? 0]));

  /** Normal and deep, yesterday, today and tomorrow: exactly what `expected` says, nothing else. */
  const expectWindows = async (expected: ByWindow) => {
    for (const mode of ['normal', 'deep'] as const) {
      for (const day of ['yesterday', 'today', 'tomorrow'] as const) {
        const want = expected[mode]?.[day] ?? {};
        const r = await reconcile(days[day], mode === 'deep');
        const label = `${mode} ${days[day]} (${day})`;
        expect({ label, drift: drift(r) }).toEqual({
          label,
          drift: Object.fromEntries(Object.entries(want).map(([k, v]) => [k, [...v].sort()])),
        });
        expect({ label, counts: r.counts }).toEqual({ label, counts: countsOf(want) });
        expect(r.truncated).toBe(0);
      }
    }
  };
  const clean = () => expectWindows({});
  /** Repair through reconcile (what a sync can fix) and wait for its work. */
  const repair = async (day: Day, deep: boolean) => {
    const r = await reconcile(days[day], deep, true);
    expect(r.repaired?.requeued).toBeGreaterThan(0);
    await waitForDrain(p.rt);
  };

  beforeAll(async () => {
    p = await startHarness({ name: 'drift-injection', invoices: 40 });
    workers = p.startWorkers(['pull', 'upsert', 'backfill']);
    await runBackfill(
      p.rt,
      { connectionId: CONNECTION, entities: ['customers', 'invoices'], ...HISTORY },
      { quiet: true },
    );
    // The source's own voids are mirrored in billing by a person (no sync can void), so they are not drift.
    for (const inv of p.zoho.store.invoices().filter((i) => i.status === 'void')) {
      const e = await p.rt.ledger.get(CONNECTION, 'invoices', inv.invoice_id);
      if (e) await admin(`/invoices/${encodeURIComponent(e.billingId)}/void`);
    }
  }, 120_000);
  beforeEach(async () => {
    await clock(null);
  });
  afterAll(async () => {
    await workers?.stop(5_000);
    await p?.close();
  });

  it('then, before any injection, every mode and window is clean', async () => {
    await clean();
  }, 60_000);

  it('missing_in_billing → deleted_in_billing_only: deleted in billing while live in the source; the repair write billing refuses makes it a person’s', async () => {
    const id = fresh();
    await admin(`/invoices/${encodeURIComponent(await billingId(id))}/delete`);
    await expectWindows({
      normal: { today: { missing_in_billing: [id] } },
      deep: { today: { missing_in_billing: [id] } },
    });

    await repair('today', false);
    expect((await p.rt.quarantine.get(CONNECTION, 'invoices', id))?.reason).toBe('BILLING_CONFLICT');
    await expectWindows({
      normal: { today: { deleted_in_billing_only: [id] } },
      deep: { today: { deleted_in_billing_only: [id] } },
    });
    const r = await reconcile(today, false);
    expect(r.needsPerson).toBe(1);
    expect((await reconcile(today, false, true)).repaired).toBeUndefined();

    // The person's decision: the invoice goes in the source too (a deep reconcile finds the hard delete).
    p.zoho.store.deleteInvoice(id, { force: true });
    await reconcile(today, true);
    await clean();
  }, 120_000);

  it('field_mismatch on a field outside the amounts (a line item edited in billing yesterday): that window only, naming the field, fixed by repair', async () => {
    const id = fresh();
    const bid = await billingId(id);
    const record = await admin(`/invoices/${encodeURIComponent(bid)}`, undefined, 'GET');
    const lineItems = structuredClone(record.lineItems) as Array<{ lineItemDetails?: { description?: string } }>;
    lineItems[0]!.lineItemDetails = { ...lineItems[0]!.lineItemDetails!, description: 'edited in billing' };
    await clock(`${days.yesterday}T12:00:00Z`);
    await admin(`/invoices/${encodeURIComponent(bid)}/patch`, { lineItems });
    await clock(null);

    await expectWindows({
      normal: { yesterday: { field_mismatch: [id] } },
      deep: { yesterday: { field_mismatch: [id] } },
    });
    const item = (await reconcile(days.yesterday, false)).items.find((i) => i.erpId === id)!;
    expect(item.detail).toBe('lineItems: differs from what was sent');
    expect(item.needsPerson).toBe(false);

    await repair('yesterday', false);
    await clean();
  }, 120_000);

  it('stale_version: billing echoes an older source version with nothing else changed, and that alone is reported', async () => {
    const id = fresh();
    const bid = await billingId(id);
    const record = await admin(`/invoices/${encodeURIComponent(bid)}`, undefined, 'GET');
    await admin(`/invoices/${encodeURIComponent(bid)}/patch`, {
      metaData: { ...(record.metaData as object), sourceVersion: '2000-01-01T00:00:00.000Z' },
    });

    await expectWindows({ normal: { today: { stale_version: [id] } }, deep: { today: { stale_version: [id] } } });
    const item = (await reconcile(today, false)).items.find((i) => i.erpId === id)!;
    expect(item.detail).toMatch(
      /^billing holds version 2000-01-01T00:00:00.000Z, ledger .*: metaData: differs from what was sent$/,
    );

    await repair('today', false);
    await clean();
  }, 120_000);

  it('stale_version (deep): edited in the source yesterday and not synced: only the deep reconcile of yesterday reports it; repair syncs it', async () => {
    const id = fresh();
    p.zoho.store.mutate({ op: 'edit_invoice', invoice_id: id }, { at: `${days.yesterday}T12:00:00Z` });

    await expectWindows({ deep: { yesterday: { stale_version: [id] } } });
    await repair('yesterday', true);
    await clean();
  }, 120_000);

  it('missing_in_billing (deep): created in the source and never synced: only the deep reconcile of its day reports it; repair syncs it', async () => {
    const id = p.zoho.store.createInvoice().id;
    used.add(id);

    await expectWindows({ deep: { today: { missing_in_billing: [id] } } });
    await repair('today', true);
    expect(await p.rt.ledger.get(CONNECTION, 'invoices', id)).toBeDefined();
    await clean();
  }, 120_000);

  it('void_not_reflected: voided in the source and synced; a person voids it in billing', async () => {
    const id = fresh();
    p.zoho.store.voidInvoice(id);
    await pullInvoices();

    await expectWindows({
      normal: { today: { void_not_reflected: [id] } },
      deep: { today: { void_not_reflected: [id] } },
    });
    expect((await reconcile(today, true, true)).repaired).toBeUndefined();

    await admin(`/invoices/${encodeURIComponent(await billingId(id))}/void`);
    await clean();
  }, 120_000);

  it('void_in_billing_only: voided in billing while live in the source; a person voids it in the source too', async () => {
    const id = fresh();
    await admin(`/invoices/${encodeURIComponent(await billingId(id))}/void`);

    await expectWindows({
      normal: { today: { void_in_billing_only: [id] } },
      deep: { today: { void_in_billing_only: [id] } },
    });
    expect((await reconcile(today, false, true)).repaired).toBeUndefined();

    p.zoho.store.voidInvoice(id);
    await pullInvoices();
    await clean();
  }, 120_000);

  it('delete_not_reflected: deleted in the source (a hard delete, found by a deep reconcile); then reported in its window in both modes; a person deletes it in billing', async () => {
    const id = fresh();
    p.zoho.store.deleteInvoice(id, { force: true });
    // Zoho has no delete feed: the first deep reconcile finds it (and records it), whichever window it reads.
    const first = await reconcile(days.yesterday, true);
    expect(first.total).toBe(0);

    await expectWindows({
      normal: { today: { delete_not_reflected: [id] } },
      deep: { today: { delete_not_reflected: [id] } },
    });
    expect((await reconcile(today, false, true)).repaired).toBeUndefined();

    await admin(`/invoices/${encodeURIComponent(await billingId(id))}/delete`);
    await clean();
  }, 120_000);

  it('orphan_in_billing and duplicate: invoices of this origin the connection never wrote; a person removes them', async () => {
    const dupOf = fresh();
    const base = { invoiceSubtotal: 10, invoiceTotal: 10, invoiceOriginSource: ORIGIN };
    await admin('/invoices', {
      invoice: { ...base, invoiceId: 'someone-else-1', invoiceNumber: 'X-1', erpId: 'not-in-the-ledger' },
    });
    await admin('/invoices', { invoice: { ...base, invoiceId: 'someone-else-2', invoiceNumber: 'X-2' } });
    await admin('/invoices', { invoice: { ...base, invoiceId: 'someone-else-3', invoiceNumber: 'X-3', erpId: dupOf } });

    const expected = { orphan_in_billing: ['invoiceId:someone-else-2', 'not-in-the-ledger'], duplicate: [dupOf] };
    await expectWindows({ normal: { today: expected }, deep: { today: expected } });

    for (const bid of ['someone-else-1', 'someone-else-2', 'someone-else-3']) await admin(`/invoices/${bid}/delete`);
    await clean();
  }, 120_000);
});
