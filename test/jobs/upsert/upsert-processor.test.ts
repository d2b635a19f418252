import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPSERT_BATCH } from '../../../jobs/catalog.js';
import { CONNECTION, startHarness, type Harness, until } from '../../support/harness.js';
import { pullThenUpsertSlowly } from '../../support/slow-upserts.js';

describe('upsert without an attachment key', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({ name: 'no-attach', invoices: 20, withoutAttachmentKey: true });
    p.startWorkers(['pull', 'upsert', 'backfill']);
  }, 60_000);
  afterAll(() => p?.close());

  it('given billing.attachmentKey unset and invoices with ERP document links, when they sync, then every invoice is written, none quarantined, and no attachment is sent', async () => {
    const { runId } = await p.backfill();
    await p.waitForBackfill(runId, 60_000);
    const posted = p.journal().filter((e) => e.method === 'POST');
    expect(posted.filter((e) => e.path.startsWith('/invoice/attachment'))).toEqual([]);
    expect(await p.rt.quarantine.list(p.rt.config.connections[0]!.id)).toEqual([]);
    expect(p.billingInvoices().size).toBeGreaterThan(0);
    expect(p.billingInvoices().size).toBe(await p.rt.ledger.count(p.rt.config.connections[0]!.id, 'invoices'));
  }, 90_000);
});

describe('given single-record upsert jobs whose billing requests take 2 s each, and record locks of 0.9 s', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({ name: 'single-long', invoices: 3, sync: { upsertBatchSize: 1, upsertConcurrency: 1 } });
  }, 60_000);
  afterAll(() => p?.close());

  it('when a job has waited on billing for longer than its lock lasts, then the record is still locked by it, and the lock is released when it is done', async () => {
    const { rt } = p;
    await pullThenUpsertSlowly(p, { latencyMs: 2_000, recordLockTtlMs: 900 }, async () => {
      const job = await until(
        'an upsert job to run',
        async () => (await rt.queues.upsert.getJobs(['active']))[0],
        30_000,
        20,
      );
      expect(job.name).not.toBe(UPSERT_BATCH);
      const lock = rt.keys.recordLock(CONNECTION, job.data.entity, job.data.erpId);
      // Its first billing request (ensuring the buyer) answered: more than twice the lock's 0.9 s since the job took
      // it, and the invoice itself is still to be written.
      const answered = p.journal().filter((e) => e.status).length;
      await until(
        'billing to answer the job a request',
        () => p.journal().filter((e) => e.status).length > answered,
        30_000,
        20,
      );
      expect(await rt.redis.get(lock)).toBe(`job-${job.id}`);
      await until(
        'the job to be done',
        async () => (await rt.queues.upsert.getJob(job.id!))?.finishedOn !== undefined,
        30_000,
        50,
      );
      expect((await rt.queues.upsert.getJob(job.id!))!.returnvalue).toEqual({ outcome: 'written' });
      expect(await rt.redis.exists(lock)).toBe(0);
    });
  }, 60_000);
});
