import { RateLimitedError, type SyncError } from '../../src/errors/index.js';
import { classifyUpsertFailure, type UpsertQuarantineReason } from './classify-upsert-failure.js';
import type { UpsertRun } from './types.js';

/** A failed upsert, as classifyUpsertFailure decides: billing's "not now" waits, a refusal is quarantined; then the error goes on. */
export async function failUpsert(run: UpsertRun, err: unknown): Promise<never> {
  const { rt, control, data } = run;
  const billingDown = !(err instanceof RateLimitedError) && (await rt.breaker.failed(err));
  const failure = classifyUpsertFailure(err, { scope: rt.keyBudgets ? 'key' : 'deployment', billingDown });
  if (failure.action === 'pause-key') {
    // The record comes back at a slot after the key's pause, without an attempt; other keys' jobs keep flowing.
    const slot = await rt.keyBudgets!.pause(run.keyId, failure.pauseMs);
    return await control.setAside(
      { reason: 'billing-slot', at: Date.now() + slot.waitMs },
      { ...data, billingSlotAt: slot.slotAt },
    );
  }
  if (failure.action === 'pause-queue') {
    // Every process: the queue's pause holds jobs not started, the deployment's budget the requests of jobs running.
    await Promise.all([rt.queues.upsert.rateLimit(failure.pauseMs), rt.billingBudget?.pause(failure.pauseMs)]);
    return await control.paused();
  }
  if (failure.action === 'wait-for-billing') {
    // The queue is paused until billing answers (jobs/admission/billing-outage.ts); this record waits in it, its attempt unused.
    run.log.info({ error: (err as Error).message }, 'billing is down; the job waits for it');
    return await control.paused();
  }
  if (failure.action === 'quarantine') await quarantineRecord(run, err as SyncError, failure.reason);
  throw err;
}

async function quarantineRecord(
  { rt, control, data }: UpsertRun,
  err: SyncError,
  reason: UpsertQuarantineReason,
): Promise<void> {
  const { connectionId: conn, entity, erpId } = data;
  await rt.quarantine.put({
    connection: conn,
    entity,
    erpId,
    version: data.version,
    reason,
    message: err.message,
    stage: 'upsert',
    at: Date.now(),
    attempts: control.attemptsMade + 1,
    payload: data,
  });
  await rt.inFlight.settle(conn, entity, erpId, control.jobId);
  rt.metrics.recordsQuarantined.inc({ connection: conn, entity, reason });
}
