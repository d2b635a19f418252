import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { JobSettlements } from '../../../jobs/upsert/job-settlements.js';
import { recordLocksLease } from '../../../jobs/upsert/record-locks-lease.js';
import { createLogger } from '../../../src/observability/logger.js';
import { createMetrics } from '../../../src/observability/metrics.js';
import { stateKeys } from '../../../src/pipeline/keys.js';
import { LeaseKeeper } from '../../../src/pipeline/lease-keeper.js';
import { UpsertState } from '../../../src/pipeline/upsert-state.js';
import { connect, dropPrefix, testPrefix } from '../../support/redis.js';

/** A job's settlements against real Redis, with the lease keeper that renews the job's record locks meanwhile. */
describe("a job's settlements and the keeper of its record locks", () => {
  const prefix = testPrefix('job-settlements');
  const keys = stateKeys(prefix);
  const redis: Redis = connect();
  const state = new UpsertState(redis, keys);
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  it('given a job holding two record locks, when it settles them and a keeper tick lands just after Redis released them, then the keeper renews nothing and warns of no lost lease', async () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      format: 'json',
      destination: { write: (s: string) => void lines.push(s) },
    });
    const metrics = createMetrics();
    const keeper = new LeaseKeeper({ logger, metrics });
    const owner = 'job-settle-1';
    const ids = ['inv-1', 'inv-2'];
    const begun = await state.beginMany(
      'c',
      'invoices',
      ids.map((erpId) => ({ erpId })),
      60_000,
      owner,
    );
    expect(begun.every((b) => b.locked)).toBe(true);

    // The tick that matters: the keeper renews right after SETTLE released the locks in Redis, before the
    // job has had a chance to do anything else (the order a 429 storm's slow settles made likely).
    const settling = {
      settleMany: async (...args: Parameters<UpsertState['settleMany']>) => {
        const written = await state.settleMany(...args);
        await keeper.renewAll();
        return written;
      },
    };
    const settlements = new JobSettlements(settling, 'c', 'invoices', owner, owner, logger);
    for (const id of ids) settlements.locked(id);
    const untrack = keeper.track(recordLocksLease({ upsertState: state }, 'c', 'invoices', settlements, 60_000));
    try {
      for (const id of ids) settlements.add(id, { outcome: 'released' });
      await settlements.flush();
    } finally {
      untrack();
    }

    expect(await redis.exists(...ids.map((id) => keys.recordLock('c', 'invoices', id)))).toBe(0);
    expect([...settlements.held]).toEqual([]);
    const warned = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level >= 40);
    expect(warned.map((l) => l.msg)).toEqual([]);
    expect((await metrics.leaseRenewalsFailed.get()).values.reduce((s, v) => s + v.value, 0)).toBe(0);
  });
});
