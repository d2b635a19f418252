import type { QueueEvents } from 'bullmq';
import { failedUpsertHelpers } from '../../app/job-helpers.js';
import type { WorkerService } from '../../app/worker-service.js';
import { runBacklog } from '../../jobs/backfill/backfill-processor.js';
import type { Runtime } from '../../jobs/runtime.js';
import { until } from './until.js';

/** Job counts by queue and state, for failure messages. */
export async function describeQueues(rt: Runtime): Promise<string> {
  const out: string[] = [];
  for (const q of Object.values(rt.queues)) {
    const c = await q.getJobCounts(
      'wait',
      'prioritized',
      'active',
      'delayed',
      'waiting-children',
      'completed',
      'failed',
    );
    const busy = Object.entries(c).filter(([, n]) => n > 0);
    out.push(`${q.name} ${busy.map(([k, n]) => `${k}=${n}`).join(' ') || 'empty'}`);
  }
  return out.join('; ');
}

/**
 * Nothing waiting, prioritized, active or delayed in the pull and upsert queues, read twice: a job that
 * moved between two queues' reads in the first is seen by the second. In between, the in-process
 * workers' follow-up writes of failed jobs (quarantine entries) are awaited. A scheduler's next run (a
 * delayed `repeat:` job) is not work in progress.
 */
export async function drained(rt: Runtime, inProcess: readonly WorkerService[]): Promise<boolean> {
  const busy = async () => {
    const p = await rt.queues.pull.getJobCounts('wait', 'prioritized', 'active', 'waiting-children');
    const u = await rt.queues.upsert.getJobCounts('wait', 'prioritized', 'active', 'delayed');
    const delayedPulls = (await rt.queues.pull.getDelayed()).filter((j) => !j.id?.startsWith('repeat:')).length;
    return Object.values(p).reduce((a, x) => a + x, 0) + Object.values(u).reduce((a, x) => a + x, 0) + delayedPulls;
  };
  if ((await busy()) > 0) return false;
  await Promise.all(inProcess.map((w) => w.settled()));
  return (await busy()) === 0;
}

export async function waitForDrain(rt: Runtime, inProcess: readonly WorkerService[], timeoutMs = 60_000) {
  try {
    await until('the pull and upsert queues to drain', () => drained(rt, inProcess), timeoutMs, 200);
  } catch {
    throw new Error(`the queues did not drain within ${timeoutMs} ms: ${await describeQueues(rt)}`);
  }
}

/**
 * Waits as `erp-sync backfill` does: the parent completed (its completion event), and none of the run's
 * own upserts left (runBacklog, which hands a failed batch's unwritten records over itself: the queues
 * alone look drained between a batch failing and its worker's 'failed' event enqueuing its records, and
 * drained() does not wait for that event in workers the test started itself); and nothing waiting,
 * active or delayed.
 */
export async function waitForBackfill(
  rt: Runtime,
  runId: string,
  backfillEvents: () => Promise<QueueEvents>,
  inProcess: readonly WorkerService[],
  timeoutMs = 60_000,
) {
  const deadline = Date.now() + timeoutMs;
  const parent = await rt.queues.backfill.getJob(runId);
  if (!parent) throw new Error(`backfill ${runId}: no such parent job`);
  try {
    await parent.waitUntilFinished(await backfillEvents(), timeoutMs);
  } catch (e) {
    const state = await parent.getState();
    if (state === 'failed')
      throw new Error(
        `backfill failed: ${(await rt.queues.backfill.getJob(runId))?.failedReason ?? (e as Error).message}`,
      );
    throw new Error(
      `backfill ${runId} did not complete within ${timeoutMs} ms: parent ${state}; ${await describeQueues(rt)}`,
    );
  }
  // Drained first, so the run's backlog is counted once its jobs are (nearly) all done: each count asks
  // BullMQ the state of every job of the run still pending.
  const left = () => Math.max(0, deadline - Date.now());
  await waitForDrain(rt, inProcess, left());
  const failedUpsert = failedUpsertHelpers(rt);
  await until(
    `backfill ${runId} to have no upsert left`,
    async () => (await runBacklog(rt, runId, failedUpsert)) === 0,
    left(),
    100,
  );
  await waitForDrain(rt, inProcess, left());
}
