import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForBacklog } from '../../../jobs/pull/wait-for-backlog.js';
import { InFlight } from '../../../src/pipeline/in-flight.js';
import { stateKeys } from '../../../src/pipeline/keys.js';
import { connect, dropPrefix, testPrefix, TEST_REDIS_URL } from '../../support/redis.js';

/**
 * A pull waits while more records than `sync.backlogHighWater` are on their way to billing. A job may
 * carry one record or a batch of up to `sync.upsertBatchSize`: the records are what is counted.
 */
describe('waitForBacklog: the pull waits on records, not on jobs', () => {
  const prefix = testPrefix('pull-backlog');
  const redis = connect();
  const queue = new Queue('upsert', { connection: { url: TEST_REDIS_URL, maxRetriesPerRequest: null }, prefix });
  const inFlight = new InFlight(redis, stateKeys(prefix));
  const config = { sync: { backlogHighWater: 100, upsertBatchSize: 20 } } as const;
  const helpers = (connections: string[]) => ({
    queues: { upsert: queue },
    config,
    inFlight,
    connectionIds: () => connections,
  });
  /** `records` records of `connection` in flight, each in a delayed job of its own (a credit note waiting for its invoice). */
  const ownJobs = async (connection: string, records: number) => {
    const entries = Array.from({ length: records }, (_, i) => ({
      entity: 'credit-notes',
      erpId: `${connection}-cn-${i}`,
      jobId: `${connection}-job-${i}`,
      payload: {},
    }));
    await inFlight.track(connection, entries);
    await queue.addBulk(entries.map((e) => ({ name: 'upsert', data: {}, opts: { jobId: e.jobId, delay: 3_600_000 } })));
  };
  /**
   * Whether a pull would go on (true) or wait (false) at its first count: the signal is aborted from the
   * start, so a pull that would wait rejects as it goes to sleep, and one that goes on returns.
   */
  const returnsAtOnce = (connections: string[]) =>
    waitForBacklog(helpers(connections), AbortSignal.abort()).then(
      () => true,
      () => false,
    );

  beforeAll(async () => {
    await queue.waitUntilReady();
  });
  afterAll(async () => {
    await queue.close();
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  it('given 60 records in flight, each in a job of its own (60 jobs, 1,200 at 20 per job), when a pull checks the backlog against a mark of 100, then it goes on', async () => {
    await ownJobs('acme', 60);
    expect(await queue.getDelayedCount()).toBe(60);
    expect(await returnsAtOnce(['acme', 'globex'])).toBe(true);
  });

  it('given 60 more in flight for another connection (120 records in 120 jobs), when a pull checks the backlog, then it waits', async () => {
    await ownJobs('globex', 60);
    expect(await inFlight.total(['acme', 'globex'])).toBe(120);
    expect(await returnsAtOnce(['acme', 'globex'])).toBe(false);
  });

  it('given in-flight entries whose jobs are gone (bookkeeping the sweep has not settled yet), when a pull checks the backlog, then the jobs bound the count and it goes on', async () => {
    await queue.obliterate({ force: true });
    expect(await inFlight.total(['acme', 'globex'])).toBe(120);
    await queue.addBulk(
      Array.from({ length: 5 }, (_, i) => ({
        name: 'upsert',
        data: {},
        opts: { jobId: `left-${i}`, delay: 3_600_000 },
      })),
    );
    expect(await returnsAtOnce(['acme', 'globex'])).toBe(true);
  });
});
