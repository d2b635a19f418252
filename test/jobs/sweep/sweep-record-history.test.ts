import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUES } from '../../../jobs/catalog.js';
import { stateKeys } from '../../../src/pipeline/keys.js';
import { type HistoryEntry, historyBucketOf, RecordHistory } from '../../../src/pipeline/record-history.js';
import { CONNECTION, type Harness, startHarness } from '../../support/harness.js';

const DAY_MS = 86_400_000;

/**
 * Record history is bounded where it is written; a record its bucket shares with records still written,
 * and never written again itself, is left to the scheduled sweep, which prunes a slice of the buckets
 * each run.
 */
describe('given a record whose last outcome is 91 days old, in a bucket another record wrote to today', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({ name: 'sweep-history', invoices: 1, customers: 1 });
  });
  afterAll(() => p?.close());

  const entry = (at: number): HistoryEntry => ({ outcome: 'written', at, version: new Date(at).toISOString() });

  it('when the scheduled sweep runs over its bucket, then the old record is gone from the bucket and the recent one stays', async () => {
    const { rt } = p;
    const keys = stateKeys(p.prefix);
    const seen = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (let n = 0; !pair; n++) {
      const id = `swept-${n}`;
      const other = seen.get(historyBucketOf(id));
      if (other) pair = [other, id];
      seen.set(historyBucketOf(id), id);
    }
    const [old, recent] = pair;
    const days = rt.config.history.days;
    // The same store, its clock 91 days back: the outcome as it was written then.
    const then = Date.now() - (days + 1) * DAY_MS;
    await new RecordHistory(p.redis, keys, rt.config.history, () => then).append(
      CONNECTION,
      'invoices',
      old,
      entry(then),
    );
    await rt.recordHistory.append(CONNECTION, 'invoices', recent, entry(Date.now()));
    const bucket = keys.recordHistoryBucket(CONNECTION, 'invoices', historyBucketOf(old));
    expect(await p.redis.lrange(bucket, 0, -1)).toEqual([old, expect.any(String), recent, expect.any(String)]);
    await p.redis.set(keys.recordHistoryPrune(CONNECTION), historyBucketOf(old));

    const events = await p.queueEvents(QUEUES.sweep);
    const workers = p.startWorkers(['upsert']);
    const job = await rt.queues.sweep.add('sweep', { connectionId: CONNECTION });
    const out = (await job.waitUntilFinished(events, 30_000)) as Array<{ historyDropped: number }>;
    await workers.stop(2_000);
    expect(out).toEqual([expect.objectContaining({ connection: CONNECTION, historyDropped: 1 })]);
    expect(await p.redis.lrange(bucket, 0, -1)).toEqual([recent, expect.any(String)]);
    expect(await rt.recordHistory.list(CONNECTION, 'invoices', old)).toEqual([]);
    expect(await rt.recordHistory.list(CONNECTION, 'invoices', recent)).toHaveLength(1);
  }, 60_000);
});
