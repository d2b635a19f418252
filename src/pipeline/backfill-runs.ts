import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';

/** How long a run's set of upsert ids is kept (a run that is never waited for again expires). */
const RUN_TTL_SECONDS = 7 * 24 * 3600;
const BATCH = 1000;

/**
 * For each backfill run, the ids of the upsert jobs it enqueued that may not be finished yet: what
 * `erp-sync backfill` waits for, so a run waits for its own upserts and not for other traffic.
 */
export class BackfillRuns {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  /** Called after the jobs exist (an id whose job does not exist yet would count as finished). */
  async trackUpserts(runId: string, jobIds: readonly string[]): Promise<void> {
    if (!jobIds.length) return;
    const key = this.keys.runUpserts(runId);
    await this.redis
      .multi()
      .sadd(key, ...jobIds)
      .expire(key, RUN_TTL_SECONDS)
      .exec();
  }

  /**
   * How many of the run's upserts are not finished. `finished` tells, for a batch of job ids, which are
   * done (completed, failed for good, or gone); those are dropped from the set as they are found, so
   * each count costs about the jobs still pending plus those finished since the last count.
   *
   * The check and the removal are two steps, so a job re-added under a spent id in between (a resumed
   * run whose old job was removed by retention) could be dropped while pending: ids dropped are checked
   * once more after the removal, and put back if their job is pending again.
   */
  async pendingUpserts(runId: string, finished: (jobIds: string[]) => Promise<boolean[]>): Promise<number> {
    const key = this.keys.runUpserts(runId);
    let cursor = '0';
    do {
      const [next, ids] = await this.redis.sscan(key, cursor, 'COUNT', BATCH);
      cursor = next;
      if (!ids.length) continue;
      const flags = await finished(ids);
      const done = ids.filter((_, i) => flags[i]);
      if (!done.length) continue;
      await this.redis.srem(key, ...done);
      const still = await finished(done);
      const back = done.filter((_, i) => !still[i]);
      if (back.length) await this.redis.sadd(key, ...back);
    } while (cursor !== '0');
    return this.redis.scard(key);
  }
}
