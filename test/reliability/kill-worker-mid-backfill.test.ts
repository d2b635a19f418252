import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordLock } from '../../src/pipeline/record-lock.js';
import { stateKeys } from '../../src/pipeline/keys.js';
import { UpsertState } from '../../src/pipeline/upsert-state.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';
import { CONNECTION, type Pipeline, startPipeline, until } from '../support/pipeline.js';

/**
 * P1 and P3 (docs/reliability.md): at-least-once delivery plus an idempotent sink survive a crash.
 * A real CLI worker process runs a backfill's jobs and is killed with SIGKILL (no shutdown code runs:
 * its active jobs keep their BullMQ locks, its record locks stay in Redis). A second worker process
 * takes the stalled jobs back once their locks expire (sync.lockDurationMs 5 s, checked every 1 s)
 * and finishes the backfill. Meanwhile the source changes (new versions of invoices some of which are
 * already in billing, some of which are still queued at their old version), so old and new versions
 * of one record race: billing must end at the newest.
 */
const INVOICES = 1500;

describe('given a backfill of 1,500 Zoho invoices run by a worker process', () => {
  let p: Pipeline;
  beforeAll(async () => {
    p = await startPipeline({
      name: 'kill9',
      invoices: INVOICES,
      customers: 60,
      settings: { detailConcurrency: 5 },
      // Vendor concurrency leases of a killed process are only freed by their TTL (120 s, longer than
      // any request may take): a budget above what one process can hold (6 pulls × 5 detail calls)
      // keeps the second worker from waiting those out.
      rateBudget: { concurrency: 64 },
      sync: { pullConcurrency: 6, upsertConcurrency: 12 },
    });
  });
  afterAll(() => p?.close());

  it('when the worker is killed with SIGKILL mid-backfill and another one starts, then every source invoice is in billing with its current content and none is left at a stale version', async () => {
    const { rt } = p;
    const ledger = () => rt.ledger.count(CONNECTION, 'invoices');
    const stalled: Array<{ job: string; at: number }> = [];
    for (const q of ['upsert', 'pull'] as const) (await p.queueEvents(q)).on('stalled', ({ jobId }) => stalled.push({ job: `${q}:${jobId}`, at: Date.now() }));

    const first = await p.spawnWorker(['pull', 'upsert', 'backfill']);
    const { runId } = await p.backfill();
    const t0 = Date.now();
    await until('a third of the invoices to be upserted', async () => (await ledger()) >= INVOICES / 3, 90_000, 20);
    first.kill('SIGKILL');
    const killed = await first.exited;
    const killedAt = Date.now();
    expect(killed.signal).toBe('SIGKILL');
    const doneAtKill = await ledger();
    const activeAtKill = ((await rt.queues.upsert.getJobCounts('active')).active ?? 0) + ((await rt.queues.pull.getJobCounts('active')).active ?? 0);
    expect(doneAtKill).toBeLessThan(INVOICES);
    // The kill left work in flight: jobs that are "active" with nobody working on them.
    expect(activeAtKill).toBeGreaterThan(0);

    // The source moves on while no worker runs: 10 invoices already in billing and 10 not yet there
    // get new versions (new quantities, so new amounts).
    const written = new Set<string>();
    for await (const batch of rt.ledger.scan(CONNECTION, 'invoices')) for (const [id] of batch) written.add(id);
    const editable = p.zoho.store.invoices().filter((i) => i.status !== 'void');
    const edited = [...editable.filter((i) => written.has(i.invoice_id)).slice(0, 10), ...editable.filter((i) => !written.has(i.invoice_id)).slice(0, 10)].map(
      (i) => i.invoice_id,
    );
    for (const id of edited) p.zoho.store.editInvoice(id);
    expect(edited).toHaveLength(20);

    const second = await p.spawnWorker(['pull', 'upsert', 'backfill']);
    // An incremental pull (what the scheduler would run) picks the edits up alongside the backfill.
    await rt.queues.pull.add('pull', { connectionId: CONNECTION, entity: 'invoices' }, { priority: 1 });
    await p.waitForBackfill(runId, 120_000);
    const recoveredAt = Date.now();

    const result = await p.compareWithSource();
    expect(result.problems).toEqual([]);
    expect(result.expected + result.quarantinedByMapping.size).toBe(p.zoho.store.invoices().length);
    expect(result.inBilling).toBe(result.expected);
    expect(await ledger()).toBe(result.expected);
    // Nothing was given up on: no failed upsert job, nothing quarantined by the upsert stage.
    expect(await rt.queues.upsert.getJobCounts('failed')).toEqual({ failed: 0 });
    expect((await rt.quarantine.list(CONNECTION)).filter((q) => q.stage === 'upsert')).toEqual([]);
    // The killed worker's jobs were taken back by the stalled-job check (this is how they came back).
    expect(stalled.length).toBeGreaterThan(0);
    second.kill('SIGTERM');
    await second.exited;

    console.info(
      `[kill -9] killed after ${doneAtKill}/${INVOICES} upserts (${((killedAt - t0) / 1000).toFixed(1)} s in, ${activeAtKill} jobs active); ` +
        `${result.inBilling}/${result.expected} in billing with current content ${((recoveredAt - killedAt) / 1000).toFixed(1)} s after the kill; ` +
        `${stalled.length} stalled jobs taken back, the first ${((Math.min(...stalled.map((s) => s.at)) - killedAt) / 1000).toFixed(1)} s after the kill ` +
        `(locks ${p.config.sync.lockDurationMs / 1000} s, checked every ${p.config.sync.stalledIntervalMs / 1000} s); ${edited.length} invoices edited while down`,
    );
  }, 180_000);
});

/**
 * Why the stalled jobs above could finish at once: the record locks a killed worker leaves behind (TTL
 * 60 s for an upsert, 30 min for an incremental pull) belong to the job id, so the same job, taken back
 * by another worker, takes its own lock over; a different job (another version of the record) still
 * waits. Without this, every upsert in flight at the kill waited out the TTL in 200–500 ms steps and
 * BullMQ failed it for starting more than maxStartedAttempts times.
 */
describe('given record locks left behind by a killed worker', () => {
  const redis = connect();
  const prefix = testPrefix('kill9-locks');
  const keys = stateKeys(prefix);
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  it('when the same job is taken back, then it takes its own lock over at once, while another job still waits', async () => {
    const state = new UpsertState(redis, keys);
    const dead = await state.begin('c', 'invoices', '42', undefined, 60_000, 'job-up-42-v1');
    expect(dead.lock).toBeDefined();
    // (the worker dies here: nothing releases the lock)
    expect((await state.begin('c', 'invoices', '42', undefined, 60_000, 'job-up-42-v2')).lock).toBeUndefined();
    const again = await state.begin('c', 'invoices', '42', undefined, 60_000, 'job-up-42-v1');
    expect(again.lock?.owner).toBe('job-up-42-v1');
    await again.lock!.release();
    expect((await state.begin('c', 'invoices', '42', undefined, 60_000, 'job-up-42-v2')).lock).toBeDefined();

    const locks = new RecordLock(redis, keys);
    expect(await locks.tryAcquire('c', 'pull-invoices', 'incremental', 60_000, 'job-repeat-1')).toBeDefined();
    expect(await locks.tryAcquire('c', 'pull-invoices', 'incremental', 60_000, 'job-repeat-2')).toBeUndefined();
    const release = await locks.tryAcquire('c', 'pull-invoices', 'incremental', 60_000, 'job-repeat-1');
    expect(release).toBeDefined();
    await release!();
    expect(await locks.tryAcquire('c', 'pull-invoices', 'incremental', 60_000, 'job-repeat-2')).toBeDefined();
  });
});
