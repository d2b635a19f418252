import { randomBytes } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { jobOptions, ReconcilePayload } from '../jobs/catalog.js';
import type { Runtime } from '../jobs/runtime.js';
import { jobIdSafe } from '../src/mapping/index.js';

export type ReconcileWindow = { from: string; to: string } | { lastDays: number };

/**
 * Enqueues a reconciliation of one connection as the reconcile job the scheduler runs (jobs/reconcile/reconcile-processor.ts),
 * with its retry policy: a reconcile worker runs it, holds it while the connection is paused and refuses
 * it for a connection bound to another billing company. The job id is new each time; it is in Redis when
 * this returns.
 */
export async function startReconcile(
  rt: Pick<Runtime, 'connection'> & {
    queues: { reconcile: Pick<Queue, 'add'> };
    options: Pick<ReturnType<typeof jobOptions>, 'reconcile'>;
  },
  connectionId: string,
  req: ReconcileWindow & { deep?: boolean; repair?: boolean },
): Promise<{ connection: string; jobId: string; payload: ReconcilePayload }> {
  rt.connection(connectionId);
  const payload: ReconcilePayload = {
    connectionId,
    ...('lastDays' in req ? { lastDays: req.lastDays } : { from: req.from, to: req.to }),
    deep: Boolean(req.deep),
    repair: Boolean(req.repair),
  };
  const jobId = jobIdSafe('reconcile-now', connectionId, `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`);
  await rt.queues.reconcile.add('reconcile', payload, { ...rt.options.reconcile, jobId });
  return { connection: connectionId, jobId, payload };
}
