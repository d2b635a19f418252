import { afterAll, beforeAll, describe, it } from 'vitest';
import { killWorkerMidBackfill } from '../support/kill-worker-mid-backfill.js';
import { type Harness, startHarness } from '../support/harness.js';
import { testScale } from '../support/scale.js';
import { startRedisCluster, type LocalRedisCluster } from '../support/redis-cluster.js';

/**
 * test/reliability/kill-worker-mid-backfill.test.ts on a Redis Cluster: a real CLI worker process, whose
 * every Redis connection is a Cluster client (REDIS_URL-style `redis+cluster://` in its config), is killed
 * with SIGKILL mid-backfill; a second one takes the stalled jobs back (BullMQ's stalled check, on the
 * queues' tagged keys) and finishes. Meanwhile the source changes, so old and new versions of one record
 * race: billing must end at the newest, and nothing is lost.
 */
// As in the one-Redis test: 300 in the suite, 1,500 as the benchmark (ERPSYNC_SCALE_KILL9_INVOICES).
const INVOICES = testScale('KILL9_INVOICES', 300);

describe(`given a Redis Cluster of three masters and a backfill of ${INVOICES} Zoho invoices run by a worker process`, () => {
  let cluster: LocalRedisCluster;
  let p: Harness;
  beforeAll(async () => {
    cluster = await startRedisCluster();
    p = await startHarness({
      name: 'cluster-kill9',
      redisUrl: cluster.url,
      invoices: INVOICES,
      customers: 60,
      settings: { detailConcurrency: 5 },
      // Vendor concurrency leases of a killed process are only freed by their TTL (120 s, longer than
      // any request may take): a budget above what one process can hold (6 pulls × 5 detail calls)
      // keeps the second worker from waiting those out.
      rateBudget: { concurrency: 64 },
      sync: { pullConcurrency: 6, upsertConcurrency: 12 },
    });
  });
  afterAll(async () => {
    await p?.close();
    await cluster?.stop();
  }, 60_000);

  it('when the worker is killed with SIGKILL mid-backfill and another one starts, then every source invoice is in billing with its current content and none is left at a stale version', async () => {
    console.info(await killWorkerMidBackfill(p, INVOICES, 'cluster kill -9'));
  }, 180_000);
});
