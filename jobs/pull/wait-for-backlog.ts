import { setTimeout as sleep } from 'node:timers/promises';
import type { AppConfig } from '../../src/config.js';
import type { PullHelpers } from './types.js';

/**
 * Backpressure: while the upsert backlog is above the high-water mark, the pull waits. The mark counts
 * records, of every connection. Two counts bound them, and the lower one is used:
 * - the in-flight index: each record enqueued and not yet written, skipped or quarantined, whatever job
 *   carries it (exact, but an entry whose bookkeeping was interrupted stays until the sweep settles it);
 * - the jobs waiting, delayed or active, each weighed at `sync.upsertBatchSize` records (a batch of a
 *   small page, or a record that left its batch, carries fewer).
 * Jobs alone overcount up to `upsertBatchSize` times: records waiting as jobs of their own (credit notes
 * waiting for their invoices) then held the pulls of those very invoices back until they gave up waiting.
 */
export async function waitForBacklog(
  rt: Pick<PullHelpers, 'queues' | 'inFlight' | 'connectionIds'> & {
    config: { sync: Pick<AppConfig['sync'], 'backlogHighWater' | 'upsertBatchSize'> };
  },
  signal?: AbortSignal,
): Promise<void> {
  for (;;) {
    const counts = await rt.queues.upsert.getJobCounts('wait', 'prioritized', 'delayed', 'active');
    const jobs = Object.values(counts).reduce((a, b) => a + b, 0);
    const backlog = Math.min(jobs * rt.config.sync.upsertBatchSize, await rt.inFlight.total(rt.connectionIds()));
    if (backlog <= rt.config.sync.backlogHighWater) return;
    await sleep(250, undefined, { signal });
  }
}
