import { AsyncLocalStorage } from 'node:async_hooks';
import type { QuotaLane } from '../waits/vendor-waits.js';

/**
 * How long the job running now may wait in place for a vendor quota slot, and whether it can give its
 * worker slot back instead. A vendor client is shared by every job of its connection in a process, so
 * the policy belongs to the job, not to the client: the job runs its work inside `withQuotaWaitPolicy`
 * and `Quotas.acquire` reads it from there.
 *
 * - `maxInPlaceWaitMs`: a wait up to this long is waited in place (a second or so: cheaper than a round
 *   trip through the queue).
 * - `deferrable()`: whether the job can be put back in the queue now without losing work (nothing read
 *   yet, or a read whose progress is saved page by page). A longer wait then throws ParkedError and the
 *   job is delayed until the slot, without using an attempt (jobs/define-job.ts). Not for an in-flight
 *   slot while calls of the same job hold slots: those free one soon. The table of these choices is
 *   `decideQuotaSlot` in src/waits/vendor-waits.ts.
 *
 * - `lane()`: whose read the job's calls serve (an announced change, the current pull, history): the
 *   order in which waiting calls get the connection's quota (`quotaLaneRule`). A pull learns it is a
 *   first sync once it has read its checkpoint, so it is asked at each call.
 *
 * Outside any job (a CLI command, a test calling a connector) there is no policy: waits are in place, in
 * the `current` lane.
 */
export interface QuotaWaitPolicy {
  maxInPlaceWaitMs: number;
  deferrable(): boolean;
  /** Called for each slot taken: lets the job know it has started reading. */
  onSlot?(): void;
  /** @defaultValue 'current' */
  lane?(): QuotaLane;
}

const current = new AsyncLocalStorage<QuotaWaitPolicy>();

export function withQuotaWaitPolicy<T>(policy: QuotaWaitPolicy, fn: () => Promise<T>): Promise<T> {
  return current.run(policy, fn);
}

export function currentQuotaWaitPolicy(): QuotaWaitPolicy | undefined {
  return current.getStore();
}
