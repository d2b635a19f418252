import { type Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { ReconcilePayload } from '../../jobs/catalog.js';
import { pauseConnection } from '../../operations/pause-connection.js';
import { reconcileNow } from '../../operations/reconcile-now.js';
import { ConflictError, JobFailedError } from '../../src/errors/index.js';
import { ConnectionControl } from '../../src/pipeline/connection-control.js';
import { stateKeys } from '../../src/pipeline/keys.js';
import { workerConnection } from '../../src/redis.js';
import { connect, dropPrefix, TEST_REDIS_URL, testPrefix } from '../support/redis.js';

const C = 'acme-zoho';

/**
 * A person's reconcile they wait for, on real Redis and a real reconcile queue: the job is the one the
 * API enqueues, run by the worker this process starts when none serves the queue, its result or failure
 * read from BullMQ's queue events.
 */
describe('reconcileNow', () => {
  const prefix = testPrefix('reconcile-now');
  const redis = connect();
  const opened: Redis[] = [];
  const connection = { url: TEST_REDIS_URL, maxRetriesPerRequest: null };
  const reconcile = new Queue('reconcile', { connection, prefix });
  const rt = {
    queues: { reconcile },
    options: {
      reconcile: {
        attempts: 2,
        backoff: { type: 'exponential' as const, delay: 60_000 },
        removeOnComplete: { age: 3600, count: 10 },
        removeOnFail: { age: 3600 },
      },
    },
    connectionControl: new ConnectionControl(redis, stateKeys(prefix)),
    connection: (id: string) => {
      if (id !== C) throw new Error(`unknown connection "${id}"`);
      return undefined as never;
    },
    workerOptions: () => {
      const r = workerConnection(TEST_REDIS_URL);
      opened.push(r);
      return { connection: r, prefix };
    },
  };
  /** Reconcile workers started by reconcileNow, with what each job carried; `run` is what the job does. */
  const ownWorkers = (run: (data: ReconcilePayload) => unknown) => {
    const started: Worker[] = [];
    const jobs: Job[] = [];
    return {
      started,
      jobs,
      startReconcileWorkers: () => {
        const w = new Worker(
          'reconcile',
          async (job: Job) => {
            jobs.push(job);
            return run(ReconcilePayload.parse(job.data));
          },
          { connection, prefix },
        );
        started.push(w);
        return { stop: () => w.close() };
      },
    };
  };
  afterAll(async () => {
    await reconcile.close();
    for (const r of opened) r.disconnect();
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  it('given no reconcile worker, when reconciling a window now, then its own worker runs the job in one attempt and the whole result comes back', async () => {
    const workers = ownWorkers((d) => ({ connection: d.connectionId, from: d.from, to: d.to, total: 0, items: [] }));
    const r = await reconcileNow(rt, C, { from: '2026-01-01', to: '2026-01-31', deep: true }, workers);
    expect(r).toEqual({ connection: C, from: '2026-01-01', to: '2026-01-31', total: 0, items: [] });
    expect(workers.started).toHaveLength(1);
    expect(workers.started[0]!.isRunning()).toBe(false);
    expect(workers.jobs[0]!.data).toEqual({
      connectionId: C,
      from: '2026-01-01',
      to: '2026-01-31',
      deep: true,
      repair: false,
      fullResult: true,
    });
    expect(workers.jobs[0]!.opts.attempts).toBe(1);
  });

  it('given the whole history asked for, then the job carries wholeHistory and no window', async () => {
    const workers = ownWorkers((d) => ({ history: d.wholeHistory, total: 0 }));
    const r = await reconcileNow(rt, C, { history: true, repair: true }, workers);
    expect(r).toEqual({ history: true, total: 0 });
    expect(workers.jobs[0]!.data).toEqual({
      connectionId: C,
      wholeHistory: true,
      deep: false,
      repair: true,
      fullResult: true,
    });
  });

  it('given the job fails, then JobFailedError carries its failed reason (no retry is waited for) and the own worker is stopped', async () => {
    const workers = ownWorkers(() => {
      throw new Error('billing GET /external/invoices: network error ECONNREFUSED');
    });
    const failed = reconcileNow(rt, C, { from: '2026-01-01', to: '2026-01-01' }, workers);
    await expect(failed).rejects.toThrow(JobFailedError);
    await expect(failed).rejects.toThrow('billing GET /external/invoices: network error ECONNREFUSED');
    expect(workers.started[0]!.isRunning()).toBe(false);
  });

  it('given a paused connection, then it is refused (its job would be held until the resume) and nothing is enqueued', async () => {
    await pauseConnection(rt, C, { by: 'ops', reason: 'month end' });
    const before = await reconcile.getJobCountByTypes('wait', 'active', 'delayed', 'completed', 'failed');
    const workers = ownWorkers(() => ({ total: 0 }));
    const err = await reconcileNow(rt, C, { from: '2026-01-01', to: '2026-01-01' }, workers).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as Error).message).toMatch(
      /^connection acme-zoho is paused since \S+ \(month end\): .*; resume it first: erp-sync connections resume acme-zoho$/,
    );
    expect(await reconcile.getJobCountByTypes('wait', 'active', 'delayed', 'completed', 'failed')).toBe(before);
    expect(workers.started).toEqual([]);
    await rt.connectionControl.resume(C);
  });

  it('given an unknown connection, then it throws before anything is enqueued', async () => {
    const before = await reconcile.count();
    await expect(
      reconcileNow(
        rt,
        'nope',
        { lastDays: 1 },
        ownWorkers(() => ({})),
      ),
    ).rejects.toThrow('unknown connection "nope"');
    expect(await reconcile.count()).toBe(before);
  });
});
