import { type Job, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBacklog } from '../../../jobs/backfill/backfill-processor.js';
import { QUEUES, UPSERT_BATCH, type UpsertPayload } from '../../../jobs/catalog.js';
import { batchUpserts, enqueueUpserts, upsertJobId } from '../../../jobs/upsert/enqueue-upserts.js';
import { accountForFailedUpsert } from '../../../jobs/upsert/failed-upsert.js';
import { failedUpsertHelpers, makeJobHelpers } from '../../../app/job-helpers.js';
import { upsertQueueProcessor, type UpsertBatchResult } from '../../../jobs/upsert/upsert-batch-processor.js';
import { sweepInFlight } from '../../../jobs/sweep/sweep-processor.js';
import { contentHash } from '../../../src/pipeline/content-hash.js';
import { COMPANY, CONNECTION, type Harness, startHarness, until, UPSERT_PATH } from '../../support/harness.js';
import { pullThenUpsertSlowly } from '../../support/slow-upserts.js';

/**
 * Several records per upsert job (`sync.upsertBatchSize`): the unit of retry and quarantine stays one
 * record. A record billing refuses is quarantined alone; a record whose write may succeed on a retry
 * leaves the batch as a job of its own; the batch's other records are written once, never retried.
 */
describe('given a synced connection of 30 invoices and upserts in batches of 10', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({
      name: 'batch',
      invoices: 30,
      sync: { upsertBatchSize: 10, upsertConcurrency: 1, backfillWindowDays: 366 },
    });
    p.startWorkers(['pull', 'upsert', 'backfill']);
    const { runId } = await p.backfill();
    await p.waitForBackfill(runId, 60_000);
  }, 90_000);
  afterAll(() => p?.close());

  it('when the history was backfilled, then every invoice went through a batch job, once, and billing equals the source', async () => {
    const { rt } = p;
    const ids = [...p.billingInvoices().keys()];
    expect(ids.length).toBeGreaterThanOrEqual(10);
    const entries = await rt.ledger.getMany(CONNECTION, 'invoices', ids);
    expect(entries.every((e) => e?.jobId?.startsWith('ub-'))).toBe(true);
    expect(p.upsertPosts()).toBe(ids.length);
    expect((await p.compareWithSource()).problems).toEqual([]);
    expect(await rt.inFlight.count(CONNECTION)).toBe(0);
    // Completed jobs are kept for the queue UI and `explain`: the last 1,000 records' worth, in batches.
    const completed = (await rt.queues.upsert.getCompleted()).filter((j) => j.name === UPSERT_BATCH);
    expect(completed.length).toBeGreaterThan(0);
    for (const j of completed) {
      const { count } = j.opts.removeOnComplete as { count: number };
      expect(count).toBeLessThanOrEqual(Math.ceil(1000 / j.data.records.length));
      expect(count).toBeGreaterThanOrEqual(100);
    }
  });

  it('when one edited invoice was deleted in billing and another meets three 503s (its call and both retries), then the first is quarantined after one call, the second is written by a job of its own, and the others are written once each', async () => {
    const { rt } = p;
    const open = p.zoho.store
      .invoices()
      .filter((i) => i.status !== 'void' && i.payments.length === 0 && i.writeOffMinor === 0);
    const edited = open.slice(0, 10).map((i) => i.invoice_id);
    const deletedInBilling = edited[5]!;
    const billingId = (await rt.ledger.get(CONNECTION, 'invoices', deletedInBilling))!.billingId;
    const del = await fetch(
      `${p.billing.url}/__admin/invoices/${encodeURIComponent(billingId)}/delete?company=${COMPANY}`,
      { method: 'POST' },
    );
    expect(del.status).toBe(200);
    for (const id of edited) p.zoho.store.editInvoice(id);
    const since = p.journal().at(-1)?.seq ?? 0;
    // The next three billing requests answer 503: the batch's first record's call and its two retries.
    p.billing.faults.set({ errorNext: 3, errorStatus: 503 });

    await rt.queues.pull.add('pull', { connectionId: CONNECTION, entity: 'invoices' }, { priority: 1 });
    await p.waitForDrain(60_000);

    const upserts = p.billing.journal.list({ since, path: UPSERT_PATH });
    expect(upserts.filter((r) => r.status === 503)).toHaveLength(3);
    // One refusal, no retry of it.
    expect(upserts.filter((r) => r.status === 409)).toHaveLength(1);
    const quarantine = await rt.quarantine.list(CONNECTION);
    expect(quarantine.map((q) => [q.erpId, q.reason, q.attempts])).toEqual([[deletedInBilling, 'BILLING_CONFLICT', 1]]);
    // The pull's batch: the edited invoices whose mapped content changed.
    const completed = await rt.queues.upsert.getJobs(['completed'], 0, -1);
    const batch = completed.find(
      (j) => j.name === UPSERT_BATCH && j.data.records.some((r: { erpId: string }) => r.erpId === deletedInBilling),
    )!;
    const inBatch: string[] = batch.data.records.map((r: { erpId: string }) => r.erpId);
    expect(inBatch.length).toBeGreaterThanOrEqual(5);
    const { outcomes, left } = batch.returnvalue as UpsertBatchResult;
    // The 503s met the batch's first record (its first billing call); the refusal is quarantined where it
    // happens, in the batch, or in the first record's own job if that is the one.
    const [leaver] = left;
    expect(left).toHaveLength(1);
    expect(leaver!.erpId).toBe(inBatch[0]);
    expect(leaver!.why).toMatch(/503/);
    expect(outcomes).toEqual(
      inBatch[0] === deletedInBilling
        ? { written: inBatch.length - 1, left: 1 }
        : { written: inBatch.length - 2, quarantined: 1, left: 1 },
    );
    // Each written once: the record that met the 503s by its own job, the others by the batch, none retried.
    expect(upserts.filter((r) => r.status === 200)).toHaveLength(inBatch.length - 1);
    const written = await rt.ledger.getMany(CONNECTION, 'invoices', inBatch);
    for (const [i, id] of inBatch.entries())
      if (id !== deletedInBilling) expect(written[i]!.jobId, id).toBe(id === leaver!.erpId ? leaver!.jobId : batch.id);
    expect(await rt.inFlight.count(CONNECTION)).toBe(0);
    expect(await rt.queues.upsert.getJobs(['failed'])).toEqual([]);
    expect((await p.compareWithSource({ except: new Set([deletedInBilling]) })).problems).toEqual([]);
  }, 90_000);
});

describe('given a batch that fails as a whole after writing three of its ten records', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({
      name: 'batch-failed',
      invoices: 10,
      sync: { upsertBatchSize: 10, upsertConcurrency: 1, attempts: 1, backfillWindowDays: 366 },
    });
  }, 60_000);
  afterAll(() => p?.close());

  it('when BullMQ ends it failed, then its seven unfinished records go on as jobs of their own and are written, and the three are not sent again', async () => {
    const real = upsertQueueProcessor(makeJobHelpers(p.rt).upsert);
    let broken = 0;
    // The batch's first run writes its first three records, then loses its footing (as a worker that
    // lost Redis mid-batch would): the job itself fails, with its one attempt spent.
    const failingBatch = async (job: Job, token?: string, signal?: AbortSignal) => {
      if (job.name !== UPSERT_BATCH || job.data.entity !== 'invoices') return real(job, token, signal);
      broken++;
      const firstThree = Object.create(job, {
        data: { value: { ...job.data, records: job.data.records.slice(0, 3) } },
      }) as Job;
      await real(firstThree, token, signal);
      throw new Error('connection to Redis lost mid-batch');
    };
    const { startWorkers } = await import('../../../app/worker-service.js');
    const workers = startWorkers(p.rt, ['pull', 'upsert', 'backfill'], { upsert: failingBatch });
    try {
      const { runId } = await p.backfill();
      await p.waitForBackfill(runId, 60_000);
      expect(broken).toBe(1);
      const ids = [...p.billingInvoices().keys()];
      expect(ids).toHaveLength(10);
      expect(p.upsertPosts()).toBe(10);
      const entries = await p.rt.ledger.getMany(CONNECTION, 'invoices', ids);
      expect(entries.filter((e) => e!.jobId!.startsWith('ub-'))).toHaveLength(3);
      expect(entries.filter((e) => /-x[0-9a-f]{8}$/.test(e!.jobId!))).toHaveLength(7);
      expect(await p.rt.quarantine.list(CONNECTION)).toEqual([]);
      expect(await p.rt.inFlight.count(CONNECTION)).toBe(0);
      expect(await p.rt.queues.upsert.getJobs(['failed'])).toEqual([]);
      expect((await p.compareWithSource()).problems).toEqual([]);
    } finally {
      await workers.stop(2_000);
    }
  }, 90_000);
});

/** A worker whose invoice batches fail and which does nothing after (no 'failed' hand-over of its own). */
function invoiceBatchesFailingWorker(p: Harness): Worker {
  const real = upsertQueueProcessor(makeJobHelpers(p.rt).upsert);
  return new Worker(
    QUEUES.upsert,
    async (job: Job, token?: string, signal?: AbortSignal) => {
      if (job.name === UPSERT_BATCH && job.data.entity === 'invoices')
        throw new Error('connection to Redis lost mid-batch');
      return real(job, token, signal);
    },
    p.rt.workerOptions(QUEUES.upsert),
  );
}

describe('given a backfill whose batch of ten invoices BullMQ has just failed, before any worker handed its records over', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({
      name: 'batch-failed-run',
      invoices: 10,
      sync: { upsertBatchSize: 10, upsertConcurrency: 1, attempts: 1, backfillWindowDays: 366 },
    });
  }, 60_000);
  afterAll(() => p?.close());

  it("when the run's backlog is counted, then the batch's records go on as jobs of their own, tracked under the run and counted as not written until they are", async () => {
    const { rt } = p;
    // As when BullMQ's stalled-job check fails a batch (no worker's 'failed' event fires), or in the
    // moment before the 'failed' event's hand-over has run.
    const bare = invoiceBatchesFailingWorker(p);
    p.startWorkers(['pull', 'backfill']);
    const { runId } = await p.backfill();
    const parent = (await rt.queues.backfill.getJob(runId))!;
    await until(
      'the windows to finish and the batch to fail',
      async () =>
        (await parent.getState()) === 'completed' && (await rt.queues.upsert.getJobCounts('failed')).failed === 1,
      30_000,
      50,
    );
    await bare.close();
    const [failed] = await rt.queues.upsert.getJobs(['failed']);
    const records: string[] = failed!.data.records.map((r: { erpId: string }) => r.erpId);
    expect(records).toHaveLength(10);
    expect(p.upsertPosts()).toBe(0);

    expect(await runBacklog(rt, runId, failedUpsertHelpers(rt))).toBe(10);
    expect(await rt.queues.upsert.getJobCounts('failed')).toEqual({ failed: 0 });
    const own = (await rt.queues.upsert.getJobs(['wait', 'prioritized'])).filter((j) => j.data.entity === 'invoices');
    expect(own.map((j) => j.data.erpId).sort()).toEqual([...records].sort());
    expect(own.every((j) => j.name === 'upsert' && /-x[0-9a-f]{8}$/.test(j.id!))).toBe(true);

    p.startWorkers(['upsert']);
    await until(
      'the run to have no upsert left',
      async () => (await runBacklog(rt, runId, failedUpsertHelpers(rt))) === 0,
      60_000,
      50,
    );
    expect(p.billingInvoices().size).toBe(10);
    expect(p.upsertPosts()).toBe(10);
    expect((await p.compareWithSource()).problems).toEqual([]);
    expect(await rt.inFlight.count(CONNECTION)).toBe(0);
  }, 90_000);
});

describe('given a batch of ten invoices that BullMQ has failed, and two callers handing its records over at once', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({
      name: 'batch-failed-twice',
      invoices: 10,
      sync: { upsertBatchSize: 10, upsertConcurrency: 1, attempts: 1 },
    });
  }, 60_000);
  afterAll(() => p?.close());

  it("when the second hands every record over and the first record's own job writes it while the first caller is still on its way, then no written record is left in flight, and each invoice is written once", async () => {
    const { rt } = p;
    const bare = invoiceBatchesFailingWorker(p);
    const pulls = p.startWorkers(['pull']);
    await rt.queues.pull.add('pull', { connectionId: CONNECTION, entity: 'invoices' }, { priority: 1 });
    await until(
      'the batch to fail',
      async () => (await rt.queues.upsert.getJobCounts('failed')).failed === 1,
      30_000,
      50,
    );
    await bare.close();
    await pulls.stop(2_000);
    const [failed] = await rt.queues.upsert.getJobs(['failed']);
    const first: string = failed!.data.records[0].erpId;
    p.startWorkers(['upsert']);

    // The first caller (the worker's 'failed' event, say) is held after its first record, while the
    // second (a backfill counting its run) hands every record over and the first record is written.
    const h = failedUpsertHelpers(rt);
    let released = 0;
    const held = {
      ...h,
      locks: {
        release: async (...args: Parameters<typeof h.locks.release>) => {
          if (++released === 2) {
            expect(await accountForFailedUpsert(h, (await rt.queues.upsert.getJob(failed!.id!))!)).toBe(true);
            await until(
              'the first record to be written by its own job',
              async () => (await rt.inFlight.get(CONNECTION, 'invoices', first)) === undefined,
              30_000,
              20,
            );
          }
          return h.locks.release(...args);
        },
      },
    };
    expect(await accountForFailedUpsert(held, failed!)).toBe(true);
    expect(released).toBe(10);

    await p.waitForDrain(60_000);
    expect(await rt.inFlight.count(CONNECTION)).toBe(0);
    expect(p.billingInvoices().size).toBe(10);
    expect(p.upsertPosts()).toBe(10);
    expect((await p.compareWithSource()).problems).toEqual([]);
  }, 90_000);
});

describe('given ten invoices pulled into one batch job that is then deleted from Redis', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({
      name: 'batch-lost',
      invoices: 10,
      sync: { upsertBatchSize: 10, upsertConcurrency: 1, sweepGraceSeconds: 0 },
    });
  }, 60_000);
  afterAll(() => p?.close());

  it('when the sweep runs, then each of its records is enqueued again as a job of its own, and every invoice reaches billing', async () => {
    const { rt } = p;
    const pulls = p.startWorkers(['pull']);
    const pull = await rt.queues.pull.add('pull', { connectionId: CONNECTION, entity: 'invoices' }, { priority: 1 });
    await until('the pull to finish', async () => (await pull.getState()) === 'completed', 30_000, 50);
    await pulls.stop(2_000);
    const waiting = (await rt.queues.upsert.getJobs(['wait', 'prioritized'])).filter(
      (j) => j.data.entity === 'invoices',
    );
    expect(waiting.map((j) => j.name)).toEqual([UPSERT_BATCH]);
    const records: string[] = waiting[0]!.data.records.map((r: { erpId: string }) => r.erpId);
    await waiting[0]!.remove();

    const swept = await sweepInFlight(makeJobHelpers(rt).sweep, CONNECTION);
    expect(swept.recovered.map((r) => [r.erpId, r.action]).sort()).toEqual(
      records.map((id) => [id, 're-enqueued']).sort(),
    );
    const again = await rt.queues.upsert.getJobs(['wait', 'prioritized']);
    expect(again.filter((j) => j.data.entity === 'invoices').map((j) => j.name)).toEqual(records.map(() => 'upsert'));

    p.startWorkers(['upsert']);
    await p.waitForDrain(60_000);
    expect((await p.compareWithSource()).problems).toEqual([]);
    expect(p.upsertPosts()).toBe(records.length);
    expect(await rt.inFlight.count(CONNECTION)).toBe(0);
  }, 90_000);
});

describe('given one invoice twice in one batch: its newer version, then an older one', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({
      name: 'batch-twice',
      invoices: 6,
      sync: { upsertBatchSize: 10, upsertConcurrency: 1, sweepGraceSeconds: 0 },
    });
  }, 60_000);
  afterAll(() => p?.close());

  it('when the batch runs, then the older copy leaves it as a job of its own, begins after the newer is settled, and is skipped as stale: billing keeps the newer', async () => {
    const { rt } = p;
    const pulls = p.startWorkers(['pull']);
    const pull = await rt.queues.pull.add('pull', { connectionId: CONNECTION, entity: 'invoices' }, { priority: 1 });
    await until('the pull to finish', async () => (await pull.getState()) === 'completed', 30_000, 50);
    await pulls.stop(2_000);
    const [pulled] = (await rt.queues.upsert.getJobs(['wait', 'prioritized'])).filter(
      (j) => j.name === UPSERT_BATCH && j.data.entity === 'invoices',
    );
    await pulled!.remove();
    const newer: UpsertPayload = pulled!.data.records[0];
    // The same invoice as the source had it a day earlier, with other content (a note billing would show).
    const body = structuredClone(newer.body) as Extract<UpsertPayload['body'], { kind: 'invoice' }>;
    body.invoice.referenceText = 'an older version';
    const older: UpsertPayload = {
      ...newer,
      version: new Date(Date.parse(newer.version) - 86_400_000).toISOString(),
      hash: contentHash(body),
      body,
    };
    expect(older.version < newer.version).toBe(true);
    const [batch] = batchUpserts(
      [newer, older].map((data) => ({
        name: 'upsert' as const,
        data,
        opts: { jobId: upsertJobId(CONNECTION, 'invoices', data.erpId, data.hash) },
      })),
      10,
    );
    await enqueueUpserts(makeJobHelpers(rt).upsert, [batch!]);

    p.startWorkers(['upsert']);
    const completed = async (id: string) => (await rt.queues.upsert.getJob(id))?.finishedOn !== undefined;
    await until('the batch to be done', () => completed(batch!.opts.jobId), 30_000, 50);
    const result = (await rt.queues.upsert.getJob(batch!.opts.jobId))!.returnvalue as UpsertBatchResult;
    expect(result.outcomes).toEqual({ written: 1, left: 1 });
    expect(result.left).toEqual([
      { erpId: newer.erpId, jobId: expect.stringMatching(/-x[0-9a-f]{8}$/), why: 'its record is earlier in the batch' },
    ]);
    await until('the older copy to be done', () => completed(result.left[0]!.jobId), 30_000, 50);
    const own = (await rt.queues.upsert.getJob(result.left[0]!.jobId))!;
    expect(own.returnvalue).toEqual({ outcome: 'stale' });
    // Billing was written once, with the newer content; the ledger holds the newer version.
    expect(p.upsertPosts()).toBe(1);
    expect(p.billingInvoices().get(newer.erpId)!.input.referenceText).not.toBe('an older version');
    expect((await rt.ledger.get(CONNECTION, 'invoices', newer.erpId))!.version).toBe(newer.version);
  }, 60_000);
});

describe('given a batch of invoices whose billing requests take 1.5 s each, and record locks of 3 s', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({ name: 'batch-long', invoices: 6, sync: { upsertBatchSize: 10, upsertConcurrency: 1 } });
  }, 60_000);
  afterAll(() => p?.close());

  it('when the batch has run for longer than the locks last, then the records it has not written yet are still locked by it, and all are written once', async () => {
    const { rt } = p;
    // Locks of 3 s renewed every second: a process starved of CPU for under 2 s keeps them, as it should.
    await pullThenUpsertSlowly(p, { latencyMs: 1_500, recordLockTtlMs: 3_000 }, async () => {
      const [batch] = (await rt.queues.upsert.getJobs(['active', 'wait', 'prioritized'])).filter(
        (j) => j.name === UPSERT_BATCH && j.data.entity === 'invoices',
      );
      const records: string[] = batch!.data.records.map((r: { erpId: string }) => r.erpId);
      expect(records.length).toBeGreaterThanOrEqual(4);
      const lockOfLast = rt.keys.recordLock(CONNECTION, 'invoices', records.at(-1)!);
      // Three requests answered: at least 4.5 s into the batch, half as long again as the locks' 3 s.
      await until('billing to have answered three upserts', async () => p.upsertPosts() >= 3, 30_000, 20);
      expect(await rt.redis.get(lockOfLast)).toBe(`job-${batch!.id}`);
      await until(
        'the batch to be done',
        async () => (await rt.queues.upsert.getJob(batch!.id!))?.finishedOn !== undefined,
        30_000,
        50,
      );
      expect((await rt.queues.upsert.getJob(batch!.id!))!.returnvalue).toEqual({
        outcomes: { written: records.length },
        left: [],
      });
      expect(p.upsertPosts()).toBe(records.length);
      expect(await rt.redis.exists(lockOfLast)).toBe(0);
    });
  }, 60_000);
});
