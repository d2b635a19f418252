import { QueueEvents, type Queue } from 'bullmq';
import { QUEUES, type jobOptions } from '../jobs/catalog.js';
import type { HistoryReconcileResult } from '../jobs/reconcile/reconcile-history.js';
import type { ReconcileResult } from '../jobs/reconcile/types.js';
import type { Runtime } from '../jobs/runtime.js';
import { ConflictError, JobFailedError } from '../src/errors/index.js';
import type { ConnectionControl } from '../src/pipeline/connection-control.js';
import { type ReconcileScope, startReconcile } from './start-reconcile.js';

export interface ReconcileNowWait {
  /** Starts reconcile workers in this process, for when none runs on this Redis (stopped after the wait). */
  startReconcileWorkers(): { stop(graceMs: number): Promise<void> };
}

type ReconcileNowRuntime = Pick<Runtime, 'connection' | 'workerOptions'> & {
  connectionControl: Pick<ConnectionControl, 'state'>;
  queues: { reconcile: Pick<Queue, 'add' | 'getJob' | 'getWorkersCount'> };
  options: Pick<ReturnType<typeof jobOptions>, 'reconcile'>;
};

/**
 * A person's reconcile that they wait for (`erp-sync reconcile`): the reconcile job the API and the
 * scheduler enqueue (operations/start-reconcile.ts), in one attempt, returning its whole result; run by
 * this process's own reconcile worker when none serves this Redis. A paused connection's job would be
 * held until the resume: refused instead (ConflictError). A job that fails throws JobFailedError with
 * its failed reason.
 */
export async function reconcileNow(
  rt: ReconcileNowRuntime,
  connectionId: string,
  req: ReconcileScope & { deep?: boolean; repair?: boolean },
  wait: ReconcileNowWait,
): Promise<ReconcileResult | HistoryReconcileResult> {
  rt.connection(connectionId);
  const control = await rt.connectionControl.state(connectionId);
  if (control.state === 'paused')
    throw new ConflictError(
      `connection ${connectionId} is paused since ${new Date(control.since).toISOString()}${control.reason ? ` (${control.reason})` : ''}: ` +
        `its reconcile would be held until the resume; resume it first: erp-sync connections resume ${connectionId}`,
    );
  // Listening before the job exists: its completion cannot be missed (BullMQ's queue events).
  const events = new QueueEvents(QUEUES.reconcile, rt.workerOptions(QUEUES.reconcile));
  let own: { stop(graceMs: number): Promise<void> } | undefined;
  try {
    await events.waitUntilReady();
    const { jobId } = await startReconcile(rt, connectionId, req, { fullResult: true, attempts: 1 });
    if ((await rt.queues.reconcile.getWorkersCount()) === 0) own = wait.startReconcileWorkers();
    const job = await rt.queues.reconcile.getJob(jobId);
    if (!job) throw new JobFailedError(`reconcile job ${jobId} is gone from the queue before it finished`);
    // https://api.docs.bullmq.io/classes/v5.Job.html#waituntilfinished
    return (await job.waitUntilFinished(events).catch((err: unknown) => {
      throw new JobFailedError((err as Error).message, { cause: err });
    })) as ReconcileResult | HistoryReconcileResult;
  } finally {
    await own?.stop(5_000);
    await events.close();
  }
}
