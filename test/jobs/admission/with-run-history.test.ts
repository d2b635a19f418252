import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRuns, type PrintedRun } from '../../../operations/list-runs.js';
import { readBackfillSummary } from '../../../jobs/backfill/backfill-processor.js';
import type { PullResult } from '../../../jobs/pull/types.js';
import { ALREADY_RUNNING } from '../../../jobs/admission/run-record.js';
import { utcDate } from '../../../src/billing/dates.js';
import type { EntityName } from '../../../src/connector/entities.js';
import { CONNECTION, type Harness, startHarness, until } from '../../support/harness.js';

/**
 * The run history on the real pipeline: the workers' pull and reconcile jobs against the Zoho Books and
 * billing emulators, read back as `erp-sync runs` reads it. Every job attempt that ran leaves one record
 * before its job is seen finished; a job put back to run later (a deferral) leaves none.
 */
describe('run history of the pull and reconcile workers', () => {
  let p: Harness;
  beforeAll(async () => {
    // Pages of five invoices: a pull reads several pages, so one can fail after it finished some.
    p = await startHarness({
      name: 'run-history-jobs',
      invoices: 20,
      sync: { vendorOutageRetrySeconds: 1 },
      settings: { pageSize: 5 },
    });
    p.startWorkers(['pull', 'upsert', 'backfill', 'reconcile']);
  }, 60_000);
  afterAll(() => p?.close());

  const finished = async (job: Job, timeoutMs = 60_000): Promise<Job> => {
    await until(
      `job ${job.id} to finish`,
      async () => ['completed', 'failed'].includes(await job.getState()),
      timeoutMs,
      50,
    );
    return (await p.rt.queues[job.queueName as 'pull' | 'reconcile'].getJob(job.id!))!;
  };
  const pull = (entity: EntityName, data: Record<string, unknown> = {}) =>
    p.rt.queues.pull.add('pull', { connectionId: CONNECTION, entity, ...data }, { priority: 1 }) as Promise<Job>;
  const runsOf = async (jobId: string | undefined): Promise<PrintedRun[]> =>
    (await listRuns(p.rt, CONNECTION, {}, 50)).filter((r) => r.jobId === jobId);
  const countsOf = (r: PullResult) => ({
    pulled: r.pulled,
    enqueued: r.enqueued,
    unchanged: r.unchanged,
    notForBilling: r.notForBilling ?? 0,
    quarantined: r.quarantined,
    deleted: r.deleted,
    pages: r.pages,
  });

  it('given a connection synced twice, when its runs are listed, then each entity shows two pull runs with their counts: the second found everything unchanged', async () => {
    const jobs: Job[] = [];
    for (const entity of ['customers', 'invoices'] as const) jobs.push(await finished(await pull(entity)));
    await p.waitForDrain();
    // The second sync reads the streams again from their beginning (as after `erp-sync state clear`).
    for (const entity of ['customers', 'invoices'] as const)
      await p.rt.checkpoints.save(
        CONNECTION,
        entity,
        p.rt.connection(CONNECTION).connector.streams[entity].initialState(undefined),
      );
    for (const entity of ['customers', 'invoices'] as const) jobs.push(await finished(await pull(entity)));

    for (const entity of ['customers', 'invoices'] as const) {
      const runs = await listRuns(p.rt, CONNECTION, { kind: 'pull', entity }, 20);
      expect(runs.map((r) => r.jobId)).toEqual(
        jobs
          .filter((j) => j.data.entity === entity)
          .map((j) => j.id)
          .reverse(),
      );
      const [second, first] = runs as [PrintedRun, PrintedRun];
      const [firstJob, secondJob] = jobs.filter((j) => j.data.entity === entity) as [Job, Job];
      expect(first).toMatchObject({
        kind: 'pull',
        connection: CONNECTION,
        entity,
        outcome: 'ok',
        attempt: 1,
        counts: countsOf(firstJob.returnvalue),
      });
      expect(second).toMatchObject({ kind: 'pull', outcome: 'ok', counts: countsOf(secondJob.returnvalue) });
      expect(first.counts.enqueued).toBeGreaterThan(0);
      expect(second.counts).toMatchObject({
        pulled: first.counts.pulled,
        enqueued: 0,
        unchanged: first.counts.enqueued,
      });
      expect(Date.parse(first.endedAt)).toBeLessThanOrEqual(Date.parse(second.startedAt));
      expect(first.durationMs).toBeGreaterThanOrEqual(0);
      expect(first).not.toHaveProperty('error');
    }
  }, 90_000);

  it('given a vendor refusing every request for good (403, a missing scope), when a pull runs, then one failed run with the error, not retried', async () => {
    p.zoho.faults.set({ errorRate: 1, errorStatus: 403 });
    try {
      const job = await finished(await pull('invoices'));
      expect(await job.getState()).toBe('failed');
      const runs = await runsOf(job.id);
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({
        kind: 'pull',
        entity: 'invoices',
        outcome: 'failed',
        attempt: 1,
        retrying: false,
        error: job.failedReason,
      });
      expect(runs[0]!.error).toMatch(/\S/);
    } finally {
      p.zoho.faults.set({});
    }
  }, 60_000);

  it('given a pull that fails after some pages, when its run is listed, then it counts the pages it had finished (its last progress report)', async () => {
    await p.rt.checkpoints.save(
      CONNECTION,
      'invoices',
      p.rt.connection(CONNECTION).connector.streams.invoices.initialState(undefined),
    );
    // Slow answers, so the vendor can be made to refuse while the pull is between its pages.
    p.zoho.faults.set({ latencyMs: 50 });
    try {
      const job = await pull('invoices');
      await until(
        'the first page to be done',
        async () => ((await p.rt.queues.pull.getJob(job.id!))?.progress as { pages?: number } | undefined)?.pages,
        30_000,
        10,
      );
      p.zoho.faults.set({ latencyMs: 50, errorRate: 1, errorStatus: 403 });
      const ended = await finished(job);
      expect(await ended.getState()).toBe('failed');
      const progress = ended.progress as { pages: number; pulled: number; enqueued: number };
      expect(progress.pages).toBeGreaterThanOrEqual(1);
      expect(await runsOf(job.id)).toEqual([
        expect.objectContaining({
          outcome: 'failed',
          retrying: false,
          counts: { pages: progress.pages, pulled: progress.pulled, enqueued: progress.enqueued },
        }),
      ]);
    } finally {
      p.zoho.faults.set({});
    }
  }, 60_000);

  it('given a vendor down, when a pull fails, waits for the vendor and then completes, then the history has the failed attempt and the run that completed, not the waits', async () => {
    p.zoho.faults.set({ errorRate: 1, errorStatus: 503 });
    const job = await pull('customers');
    const [failed] = await until('the failed first attempt', async () => {
      const r = await runsOf(job.id);
      return r.length ? r : undefined;
    });
    expect(failed).toMatchObject({
      outcome: 'failed',
      attempt: 1,
      retrying: true,
      error: expect.stringContaining('503'),
    });
    // The second attempt fails too: the vendor is marked down and the pull waits, delayed and tried every second without an attempt.
    await until('the vendor to be marked down', () => p.rt.outages.get(CONNECTION), 60_000, 50);
    const refused = p.zoho.journal.list().filter((e) => e.status === 503).length;
    await until(
      'two more tries while parked',
      () => p.zoho.journal.list().filter((e) => e.status === 503).length >= refused + 2,
      60_000,
      50,
    );
    expect(await runsOf(job.id)).toHaveLength(1);

    p.zoho.faults.set({});
    expect(await (await finished(job)).getState()).toBe('completed');
    const runs = await runsOf(job.id);
    expect(runs.map((r) => [r.outcome, r.attempt])).toEqual([
      ['ok', 2],
      ['failed', 1],
    ]);
  }, 90_000);

  it('given an incremental pull of the stream running, when another pull of it runs, then a skipped run says why', async () => {
    const release = await p.rt.locks.tryAcquireIncrementalPull(CONNECTION, 'customers', 'held-by-the-test');
    expect(release).toBeDefined();
    try {
      const job = await finished(await pull('customers'));
      expect(await runsOf(job.id)).toEqual([
        expect.objectContaining({ kind: 'pull', outcome: 'skipped', reason: ALREADY_RUNNING, counts: {} }),
      ]);
    } finally {
      await release!();
    }
  }, 60_000);

  it('given a pull that must wait for a running one, when it is put back again and again, then no run is recorded until it runs, then one', async () => {
    const release = await p.rt.locks.tryAcquireIncrementalPull(CONNECTION, 'invoices', 'held-by-the-test');
    expect(release).toBeDefined();
    let job: Job;
    try {
      job = await pull('invoices', { waitForRunning: true });
      const first = await until('the pull to be put back', async () => {
        const j = await p.rt.queues.pull.getJob(job.id!);
        return (await j?.getState()) === 'delayed' ? j?.processedOn : undefined;
      });
      await until('the pull to be put back once more', async () => {
        const j = await p.rt.queues.pull.getJob(job.id!);
        return (await j?.getState()) === 'delayed' && (j?.processedOn ?? 0) > first;
      });
      expect(await runsOf(job.id)).toEqual([]);
    } finally {
      await release!();
    }
    await finished(job);
    expect((await runsOf(job.id)).map((r) => [r.outcome, r.attempt])).toEqual([['ok', 1]]);
  }, 60_000);

  it('given a backfill, when it has run, then each window left a backfill-window run under the run id, adding up to the summary', async () => {
    const { runId, children } = await p.backfill();
    await p.waitForBackfill(runId, 90_000);
    const summary = await readBackfillSummary(p.rt, runId);
    const windows = (await listRuns(p.rt, CONNECTION, { kind: 'backfill-window' }, 50)).filter(
      (r) => r.runId === runId,
    );
    expect(windows).toHaveLength(children);
    expect(
      windows.every((r) => r.outcome === 'ok' && r.window && r.jobId === `${runId}-${r.entity}-${r.window.from}`),
    ).toBe(true);
    const sum = (k: string) => windows.reduce((a, r) => a + r.counts[k]!, 0);
    expect({
      pulled: sum('pulled'),
      enqueued: sum('enqueued'),
      unchanged: sum('unchanged'),
      quarantined: sum('quarantined'),
    }).toEqual({
      pulled: summary.pulled,
      enqueued: summary.enqueued,
      unchanged: summary.unchanged,
      quarantined: summary.quarantined,
    });
  }, 120_000);

  it('given a reconcile job, when it has run, then a reconcile run holds its window and the summary counts it returned', async () => {
    const today = utcDate(Date.now());
    const job = await finished(
      await (p.rt.queues.reconcile.add('reconcile', {
        connectionId: CONNECTION,
        from: today,
        to: today,
      }) as Promise<Job>),
    );
    expect(await job.getState()).toBe('completed');
    const r = job.returnvalue as {
      counts: Record<string, number>;
      total: number;
      needsPerson: number;
      checked: Record<string, number>;
    };
    const runs = await listRuns(p.rt, CONNECTION, { kind: 'reconcile' }, 5);
    expect(runs[0]).toMatchObject({
      kind: 'reconcile',
      connection: CONNECTION,
      jobId: job.id,
      window: { from: today, to: today },
      outcome: 'ok',
      counts: {
        ...r.counts,
        total: r.total,
        needsPerson: r.needsPerson,
        checkedBilling: r.checked.billing,
        checkedLedger: r.checked.ledger,
        checkedSource: r.checked.source,
      },
    });
    expect(runs[0]!.counts.checkedBilling).toBeGreaterThan(0);
    expect(runs[0]).not.toHaveProperty('entity');
  }, 60_000);
});
