import { setTimeout as sleep } from 'node:timers/promises';
import type { Runtime } from '../jobs/runtime.js';

/** Jobs not yet finished in the upsert queue. */
export async function upsertBacklog(rt: Runtime): Promise<number> {
  const c = await rt.queues.upsert.getJobCounts('wait', 'prioritized', 'active', 'delayed');
  return Object.values(c).reduce((a, b) => a + b, 0);
}

/** Waits until the pull and upsert queues have nothing waiting, delayed or active. */
export async function waitForDrain(
  rt: Runtime,
  onTick?: (backlog: number) => void,
  timeoutMs = 30 * 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let quietTicks = 0;
  while (Date.now() < deadline) {
    const pull = await rt.queues.pull.getJobCounts('wait', 'prioritized', 'active', 'delayed', 'waiting-children');
    const pulls = Object.values(pull).reduce((a, b) => a + b, 0);
    const backlog = await upsertBacklog(rt);
    onTick?.(backlog);
    // Two quiet observations in a row: a job may move between states between two reads.
    quietTicks = pulls === 0 && backlog === 0 ? quietTicks + 1 : 0;
    if (quietTicks >= 2) return;
    await sleep(200);
  }
  throw new Error(`queues did not drain within ${Math.round(timeoutMs / 1000)} s`);
}
