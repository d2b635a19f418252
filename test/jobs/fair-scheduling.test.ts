import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION, type Harness, SECOND_CONNECTION, startHarness, until } from '../support/harness.js';

/**
 * Fair scheduling on one worker slot: a connection whose vendor quota is spent gives its slot back (its
 * pull is put back in the queue until its next slot, no attempt used), so another connection's pull runs
 * at once instead of waiting the minute out behind it. Both Zoho Books connections here may make 3 calls a
 * minute; a read of 30 invoices needs more than 30 (a detail GET per invoice). A settle delay of a second
 * lets a restarted read skip what it already handed over, so putting it back loses nothing.
 */
describe('given one pull slot and two connections whose quota allows 3 calls a minute', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({
      name: 'fair',
      invoices: 30,
      customers: 5,
      secondConnection: true,
      settleDelaySeconds: 1,
      sync: { pullConcurrency: 1 },
      rateBudget: { perMinute: 3 },
    });
    p.startWorkers(['pull']);
  });
  afterAll(() => p?.close());

  it('when the first connection spends its minute mid-read, then its pull waits in the queue (no attempt used) and the second connection is served at once, long before the first one’s minute is over', async () => {
    const { rt } = p;
    const first = await rt.queues.pull.add(
      'pull',
      { connectionId: CONNECTION, entity: 'invoices' },
      { jobId: 'fair-first' },
    );
    await until(
      'the first pull to spend its quota and give its slot back',
      async () => (await first.getState()) === 'delayed',
      15_000,
    );
    const deferredAt = Date.now();
    const second = await rt.queues.pull.add(
      'pull',
      { connectionId: SECOND_CONNECTION, entity: 'invoices' },
      { jobId: 'fair-second' },
    );
    await until(
      'the second connection’s pull to start',
      async () => (await rt.queues.pull.getJob(second.id!))?.processedOn !== undefined,
      15_000,
    );
    const startedAfter = (await rt.queues.pull.getJob(second.id!))!.processedOn! - deferredAt;

    const held = (await rt.queues.pull.getJob(first.id!))!;
    expect(held.attemptsMade).toBe(0);
    expect(held.failedReason).toBeFalsy();
    // It waits for its own next slot: the first call of its minute leaves the window about 60 s after it was made.
    expect(held.delay).toBeGreaterThan(30_000);
    expect(startedAfter).toBeLessThan(10_000);
    const deferred = (await rt.metrics.jobsDeferred.get()).values.filter((v) => v.labels.reason === 'quota');
    expect(deferred.reduce((a, v) => a + v.value, 0)).toBeGreaterThanOrEqual(1);
    console.log(`[fair] first pull delayed for its quota; second connection's pull started ${startedAfter} ms later`);
  });
});
