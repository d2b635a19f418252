import { randomBytes } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { jobOptions, ReconcilePayload } from '../jobs/catalog.js';
import type { Runtime } from '../jobs/runtime.js';
import { jobIdSafe } from '../src/mapping/index.js';

export type ReconcileWindow = { from: string; to: string } | { lastDays: number };
/** A window of days, or the connection's whole history (by invoice date). */
export type ReconcileScope = ReconcileWindow | { history: true };

/** How a reconcile someone waits for runs (operations/reconcile-now.ts); the API's and the scheduler's take the defaults. */
export interface ReconcileJobMode {
  /** The job returns the whole result (every drifted record, what a repair did), not its summary. */
  fullResult?: boolean;
  /** Attempts instead of the reconcile job's retry policy: the person waiting sees a failure at once. */
  attempts?: number;
}

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
  req: ReconcileScope & { deep?: boolean; repair?: boolean },
  mode: ReconcileJobMode = {},
): Promise<{ connection: string; jobId: string; payload: ReconcilePayload }> {
  rt.connection(connectionId);
  const payload: ReconcilePayload = {
    connectionId,
    ...scopeOf(req),
    deep: Boolean(req.deep),
    repair: Boolean(req.repair),
    ...(mode.fullResult ? { fullResult: true } : {}),
  };
  const jobId = jobIdSafe('reconcile-now', connectionId, `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`);
  const attempts = mode.attempts === undefined ? {} : { attempts: mode.attempts };
  await rt.queues.reconcile.add('reconcile', payload, { ...rt.options.reconcile, ...attempts, jobId });
  return { connection: connectionId, jobId, payload };
}

function scopeOf(req: ReconcileScope): Pick<ReconcilePayload, 'from' | 'to' | 'lastDays' | 'wholeHistory'> {
  if ('history' in req) return { wholeHistory: true };
  return 'lastDays' in req ? { lastDays: req.lastDays } : { from: req.from, to: req.to };
}
