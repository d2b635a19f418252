import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackfill } from '../../../cli/commands/backfill.js';
import { addBackfill, readBackfillSummary, runBacklog } from '../../../jobs/backfill/backfill-processor.js';
import { failedUpsertHelpers } from '../../../app/job-helpers.js';
import { waitForDrain } from '../../../cli/drain.js';
import type { Runtime } from '../../../jobs/runtime.js';
import { addDays, utcDate } from '../../../src/billing/dates.js';
import { type Harness, startHarness } from '../../support/harness.js';
import { until } from '../../support/until.js';

describe('backfill', () => {
  let h: Harness;
  let rt: Runtime;
  let qboUrl: string;

  beforeAll(async () => {
    h = await startHarness({
      name: 'backfill',
      connections: [{ system: 'quickbooks', id: 'qbo-in', seed: 3, invoices: 30, customers: 12 }],
    });
    rt = h.rt;
    qboUrl = h.emulatorOf('qbo-in', 'quickbooks').url;
    h.startWorkers(['pull', 'upsert', 'backfill']);
  }, 60_000);
  afterAll(() => h?.close());

  /** An invoice the QuickBooks sandbox creates, dated `txnDate`, last modified at `at`; its Id. */
  const createQboInvoice = async (txnDate: string, at: Date): Promise<string> => {
    const res = await fetch(`${qboUrl}/__admin/invoices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ txnDate, at: at.toISOString() }),
    });
    expect(res.ok).toBe(true);
    return ((await res.json()) as { Id: string }).Id;
  };

  /** An upsert job that stays delayed for ten minutes (never runs during the test). */
  const delayedUpsert = (connectionId: string, jobId: string) =>
    rt.queues.upsert.add(
      'upsert',
      {
        connectionId,
        entity: 'invoices',
        erpId: jobId,
        version: '2026-01-01T00:00:00.000Z',
        hash: '0'.repeat(64),
        body: { kind: 'invoice', invoice: {} },
      },
      { delay: 10 * 60_000, jobId },
    );

  it('given an invoice dated after the backfill window (post-dated, or "tomorrow" in the vendor\'s time zone), when the next incremental sync runs, then it reaches billing', async () => {
    // The QuickBooks sandbox's admin API creates an invoice dated after the window.
    const tomorrow = addDays(utcDate(Date.now()), 2);
    const id = await createQboInvoice(tomorrow, new Date(Date.now() - 3_600_000)); // modified an hour before the backfill

    await runBackfill(
      rt,
      { connectionId: 'qbo-in', entities: ['invoices'], from: '2020-01-01', to: utcDate(Date.now()) },
      { quiet: true },
    );
    expect(await rt.ledger.get('qbo-in', 'invoices', id)).toBeUndefined(); // outside the window

    await rt.queues.pull.add('pull', { connectionId: 'qbo-in', entity: 'invoices' }, { priority: 1 });
    await waitForDrain(rt);
    expect(await rt.ledger.get('qbo-in', 'invoices', id)).toMatchObject({ billingId: expect.stringContaining(id) });
  }, 120_000);

  it('given a copy of the backfill parent fetched before it completed, when its state then reads completed, then only a fresh read carries the summary — and the CLI report always has its counts', async () => {
    const req = {
      connectionId: 'qbo-in',
      entities: ['invoices' as const],
      from: '2020-01-01',
      to: utcDate(Date.now()),
    };
    const { runId } = await addBackfill(rt, req, { restart: true });
    const stale = (await rt.queues.backfill.getJob(runId))!;
    await until('the backfill parent to complete', async () => (await stale.getState()) === 'completed', 60_000);
    expect(stale.returnvalue).toBeFalsy(); // the race that once printed "enqueued undefined"
    const summary = await readBackfillSummary(rt, runId);
    expect(summary).toMatchObject({
      windows: expect.any(Number),
      pulled: expect.any(Number),
      enqueued: expect.any(Number),
      unchanged: expect.any(Number),
    });
    expect(summary.pulled).toBeGreaterThan(0);

    for (let i = 0; i < 5; i++) {
      const report = await runBackfill(rt, req, { restart: true, quiet: true });
      expect(report.pulled).toBe(summary.pulled);
      expect(report.enqueued).toBe(0);
      expect(report.unchanged).toBeGreaterThan(0);
    }
  }, 120_000);

  it("given another connection's upserts waiting in the same queue, when this connection's backfill runs, then it returns once its own upserts are written", async () => {
    const other = await delayedUpsert('someone-else', 'someone-elses-delayed-upsert');
    try {
      const req = {
        connectionId: 'qbo-in',
        entities: ['invoices' as const, 'customers' as const],
        from: '2020-01-01',
        to: utcDate(Date.now()),
      };
      // New invoices in the window, so the run has upserts of its own to wait for.
      const created: string[] = [];
      for (let i = 0; i < 3; i++)
        created.push(await createQboInvoice(utcDate(Date.now()), new Date(Date.now() - 60_000)));
      const report = await runBackfill(rt, req, { restart: true, quiet: true });
      expect(report.enqueued).toBeGreaterThanOrEqual(3);
      for (const id of created)
        expect(
          await rt.ledger.get('qbo-in', 'invoices', id),
          `invoice ${id} written when the backfill returned`,
        ).toBeDefined();
      expect(await other.getState()).toBe('delayed'); // still waiting: the backfill did not wait for it
      expect(await rt.redis.scard(rt.keys.runUpserts(report.runId))).toBe(0);
    } finally {
      await other.remove();
    }
  }, 120_000);

  it("given a run's upsert ids — one delayed, one completed, one already removed — when its backlog is counted, then only the delayed one remains", async () => {
    const [completed] = await rt.queues.upsert.getCompleted(0, 0);
    expect(completed).toBeDefined();
    const delayed = await delayedUpsert('qbo-in', 'a-delayed-upsert-of-the-run');
    try {
      const runId = 'bf-test-backlog';
      await rt.redis.sadd(rt.keys.runUpserts(runId), delayed.id!, completed!.id!, 'an-id-whose-job-was-removed');
      expect(await runBacklog(rt, runId, failedUpsertHelpers(rt))).toBe(1);
      expect(await rt.redis.smembers(rt.keys.runUpserts(runId))).toEqual([delayed.id]);
      await rt.redis.del(rt.keys.runUpserts(runId));
    } finally {
      await delayed.remove();
    }
  });
});
