import type { QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackfill } from '../../../cli/commands/backfill.js';
import { QUEUES } from '../../../jobs/catalog.js';
import { runReconcile } from '../../../jobs/reconcile/run-reconcile.js';
import { addDays, utcDate } from '../../../src/billing/dates.js';
import { decodeLedgerEntry, encodeLedgerEntry } from '../../../src/pipeline/ledger-entry-codec.js';
import { COMPANY, CONNECTION, HISTORY, type Harness, startHarness } from '../../support/harness.js';

const DAY_MS = 86_400_000;
const CYCLE_DAYS = 7;

interface ScheduledResult {
  total: number;
  counts: Record<string, number>;
  history: {
    cycle?: { slice?: string; run: number; runsPerCycle: number; completed: boolean; calls: number };
    invariant?: { narrowed: Array<{ window: string; billing: number; ledger: number }>; calls: number };
    items: Array<{ kind: string; erpId?: string; detail: string }>;
  };
}

/**
 * The scheduled reconcile's own window holds only what was touched lately. An invoice synced 60 days ago
 * (on billing's clock) and deleted in billing today is in neither side of that window; the history cycle
 * walks every invoice date of the connection a slice per run and finds it within its cycle.
 */
describe('given a connection synced 60 days ago, one of whose invoices a billing user deletes today', () => {
  let p: Harness;
  let events: QueueEvents;
  let deleted: { erpId: string; billingId: string; invoiceDate: string };
  const today = utcDate(Date.now());
  const admin = async (path: string, body?: unknown, query = `?company=${COMPANY}`) => {
    const res = await fetch(`${p.billing.url}/__admin${path}${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
    if (!res.ok) throw new Error(`admin ${path}: ${res.status} ${await res.text()}`);
  };
  const scheduledRun = async (): Promise<ScheduledResult> => {
    // What the reconcile scheduler enqueues (jobs/reconcile/reconcile-processor.ts, upsertReconcileSchedulers).
    const job = await p.rt.queues.reconcile.add('reconcile', { connectionId: CONNECTION, lastDays: 2, history: true });
    return (await job.waitUntilFinished(events, 30_000)) as ScheduledResult;
  };

  beforeAll(async () => {
    p = await startHarness({
      name: 'reconcile-cycle',
      invoices: 40,
      customers: 5,
      reconcile: { windowDays: 2, everySeconds: 86_400, cycleDays: CYCLE_DAYS, countInvariant: { enabled: false } },
    });
    events = await p.queueEvents(QUEUES.reconcile);
    p.startWorkers(['pull', 'upsert', 'backfill', 'reconcile']);
    // The sync ran 60 days ago: billing's clock says so, and so does the ledger's writtenAt.
    await admin('/clock', { now: new Date(Date.now() - 60 * DAY_MS).toISOString() }, '');
    await runBackfill(
      p.rt,
      { connectionId: CONNECTION, entities: ['customers', 'invoices'], ...HISTORY },
      { quiet: true },
    );
    await admin('/clock', { now: null }, '');
    const key = p.rt.keys.ledger(CONNECTION, 'invoices');
    for (const [erpId, raw] of Object.entries(await p.redis.hgetall(key))) {
      const e = decodeLedgerEntry(erpId, raw);
      await p.redis.hset(key, erpId, encodeLedgerEntry(erpId, { ...e, writtenAt: e.writtenAt - 60 * DAY_MS }));
    }
    // The source's own voids are mirrored in billing (a person's standing task), so they are not drift.
    for (const inv of p.zoho.store.invoices().filter((i) => i.status === 'void')) {
      const e = await p.rt.ledger.get(CONNECTION, 'invoices', inv.invoice_id);
      if (e) await admin(`/invoices/${encodeURIComponent(e.billingId)}/void`);
    }
    // An invoice from late in the history, so the cycle reaches it only after a few slices.
    const entries = Object.entries(await p.redis.hgetall(key)).map(
      ([id, raw]) => [id, decodeLedgerEntry(id, raw)] as const,
    );
    const [erpId, e] = entries
      .filter(([, x]) => x.fields?.invoiceDate)
      .sort(([, a], [, b]) => (a.fields!.invoiceDate! < b.fields!.invoiceDate! ? 1 : -1))[0]!;
    deleted = { erpId, billingId: e.billingId, invoiceDate: e.fields!.invoiceDate! };
    await admin(`/invoices/${encodeURIComponent(e.billingId)}/delete`);
  }, 120_000);
  afterAll(async () => {
    await events?.close();
    await p?.close();
  });

  it('when the last two days are reconciled as before, then the delete is not seen (neither side of that window holds it)', async () => {
    const r = await runReconcile(p.rt, { connectionId: CONNECTION, from: addDays(today, -1), to: today });
    expect(r.counts.missing_in_billing).toBe(0);
  }, 30_000);

  it('when the scheduled reconcile runs once per schedule, then within its cycle one run reports the delete as missing_in_billing and the cycle covers the whole history once', async () => {
    const runs: ScheduledResult[] = [];
    for (let i = 0; i < CYCLE_DAYS; i++) {
      runs.push(await scheduledRun());
      if (runs.at(-1)!.history.cycle!.completed) break;
    }
    expect(runs.at(-1)!.history.cycle!.completed).toBe(true);
    expect(runs.length).toBeLessThanOrEqual(CYCLE_DAYS);
    const found = runs.flatMap((r, i) =>
      r.history.items.filter((it) => it.kind === 'missing_in_billing').map((it) => ({ run: i + 1, ...it })),
    );
    expect(found).toEqual([
      expect.objectContaining({
        erpId: deleted.erpId,
        detail: expect.stringContaining(`invoice date ${deleted.invoiceDate}`),
      }),
    ]);
    // The slices are consecutive and together span the ledger's invoice dates.
    const slices = runs.map((r) => r.history.cycle!.slice!.split('..'));
    for (let i = 1; i < slices.length; i++) expect(slices[i]![0]).toBe(addDays(slices[i - 1]![1]!, 1));
    expect(slices[0]![0]! <= deleted.invoiceDate && deleted.invoiceDate <= slices.at(-1)![1]!).toBe(true);
    // Nothing else drifted: the only finding of the whole cycle is the delete.
    expect(runs.reduce((n, r) => n + r.total, 0)).toBe(1);
  }, 120_000);
});
