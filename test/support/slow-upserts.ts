import { makeJobHelpers } from '../../app/job-helpers.js';
import { upsertQueueProcessor } from '../../jobs/upsert/upsert-batch-processor.js';
import { CONNECTION, type Harness, until } from './harness.js';

/**
 * Pulls the connection's invoices once (their upserts enqueued, none run yet), then runs upsert workers
 * whose record locks last `recordLockTtlMs` while billing answers every request after `latencyMs`, for
 * as long as `during` takes. Billing's latency is lifted and the workers stopped afterwards.
 */
export async function pullThenUpsertSlowly(
  p: Harness,
  options: { latencyMs: number; recordLockTtlMs: number },
  during: (pulled: Harness) => Promise<void>,
): Promise<void> {
  const { rt } = p;
  const pulls = p.startWorkers(['pull']);
  const pull = await rt.queues.pull.add('pull', { connectionId: CONNECTION, entity: 'invoices' }, { priority: 1 });
  await until('the pull to finish', async () => (await pull.getState()) === 'completed', 30_000, 50);
  await pulls.stop(2_000);
  p.billing.faults.set({ latencyMs: options.latencyMs });
  const upserts = upsertQueueProcessor({ ...makeJobHelpers(rt).upsert, recordLockTtlMs: options.recordLockTtlMs });
  const { startWorkers } = await import('../../app/worker-service.js');
  const workers = startWorkers(rt, ['upsert'], { upsert: upserts });
  try {
    await during(p);
  } finally {
    p.billing.faults.set({});
    await workers.stop(2_000);
  }
}
