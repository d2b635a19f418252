import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION, type Harness, startHarness, until } from '../support/harness.js';

/**
 * P10 (docs/reliability.md): SIGTERM is a graceful stop. The CLI worker stops taking jobs,
 * lets the in-flight ones finish within `sync.graceSeconds`, closes its connections and exits 0; it
 * leaves no job active behind, so no other worker ever has to take one back as stalled.
 *
 * The upsert worker runs as a real child process under load (billing answers every request after
 * 300 ms, 8 jobs in flight); pulls run in the test process. A QueueEvents listener watches for
 * `stalled` from before the first worker starts until the next worker has finished the rest. The next
 * worker checks for stalled jobs every second with 5 s locks, so a job left active by the first one
 * would be reported within seconds — and the queue could not drain without it being taken back.
 */
const INVOICES = 100;
const GRACE_SECONDS = 10;

describe('given a worker process upserting under load (billing latency 300 ms, 8 jobs in flight)', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({
      name: 'sigterm',
      invoices: INVOICES,
      sync: { upsertConcurrency: 8, graceSeconds: GRACE_SECONDS },
    });
  });
  afterAll(() => p?.close());

  it('when it receives SIGTERM, then it exits 0 within the grace period, no job is left active or stalled, and the next worker completes the rest', async () => {
    const { rt } = p;
    const ledger = () => rt.ledger.count(CONNECTION, 'invoices');
    const stalled: string[] = [];
    (await p.queueEvents('upsert')).on('stalled', ({ jobId }) => stalled.push(jobId));
    p.billing.faults.set({ latencyMs: 300 });
    p.startWorkers(['pull', 'backfill']);
    const first = await p.spawnWorker(['upsert']);
    const { runId } = await p.backfill();
    await until('some upserts to complete', async () => (await ledger()) >= 20, 60_000, 20);

    const activeAtSignal = (await rt.queues.upsert.getJobCounts('active')).active ?? 0;
    const doneAtSignal = await ledger();
    const signalled = Date.now();
    first.kill('SIGTERM');
    const exit = await first.exited;
    const exitMs = Date.now() - signalled;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(exitMs).toBeLessThan(GRACE_SECONDS * 1000);
    expect(first.output()).toContain('"shutting down"');
    // Everything in flight finished inside the grace period: nothing had to be cancelled.
    expect(first.output()).not.toContain('grace period over');
    expect(activeAtSignal).toBeGreaterThan(0);
    // It left nothing active behind (those jobs would be stalled for the next worker to take back).
    expect((await rt.queues.upsert.getJobCounts('active')).active).toBe(0);
    const doneByFirst = await ledger();
    expect(doneByFirst).toBeLessThan(INVOICES);

    p.billing.faults.set({});
    const second = await p.spawnWorker(['upsert']);
    await p.waitForBackfill(runId, 90_000);
    const metricsUrl = /erp-sync worker: (\S+\/metrics)/.exec(second.output())?.[1];
    const metrics = metricsUrl ? await (await fetch(metricsUrl)).text() : '';
    second.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });

    expect(stalled).toEqual([]);
    expect(metrics).toMatch(/erpsync_workers_running\{queue="upsert"\} 1/);
    expect(metrics).not.toMatch(/erpsync_jobs_stalled_total\{[^}]*\} [1-9]/);
    expect(await rt.queues.upsert.getJobCounts('failed')).toEqual({ failed: 0 });
    // Nothing was aborted or retried because of the stop.
    const jobs = (await p.upsertJobs(['completed'])).filter((j) => j.data.entity === 'invoices');
    expect(Math.max(...jobs.map((j) => j.attemptsMade))).toBe(1);
    const result = await p.compareWithSource();
    expect(result.problems).toEqual([]);
    expect(result.inBilling).toBe(result.expected);

    console.info(
      `[SIGTERM] signalled after ${doneAtSignal}/${INVOICES} upserts with ${activeAtSignal} jobs active; exited 0 in ${exitMs} ms ` +
        `(grace ${GRACE_SECONDS} s) having finished ${doneByFirst - doneAtSignal} more; 0 left active; ${stalled.length} stalled; ` +
        `next worker completed ${result.inBilling - doneByFirst}, ${result.inBilling}/${result.expected} in billing`,
    );
  }, 120_000);
});
