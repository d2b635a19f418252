import { type Job, Queue, QueueEvents, Worker } from 'bullmq';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob } from '../../jobs/define-job.js';
import { ParkedError } from '../../src/errors/index.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { ConnectionSlots } from '../../src/pipeline/connection-slots.js';
import { stateKeys } from '../../src/pipeline/keys.js';
import type { LeaseKeeper } from '../../src/pipeline/lease-keeper.js';
import { connect, dropPrefix, testPrefix, TEST_REDIS_URL } from '../support/redis.js';

describe('defineJob: the one place a park becomes a delay', () => {
  const prefix = testPrefix('define-job');
  const redis = connect();
  const connection = { url: TEST_REDIS_URL, maxRetriesPerRequest: null };
  let queue: Queue;
  let events: QueueEvents;
  let worker: Worker;
  const parkedUntil: number[] = [];

  beforeAll(async () => {
    queue = new Queue('parked', { connection, prefix });
    events = new QueueEvents('parked', { connection, prefix });
    await events.waitUntilReady();
    const processor = defineJob(
      'parked',
      z.object({ connectionId: z.string() }),
      { logger: pino({ level: 'silent' }), metrics: createMetrics() },
      async ({ job }) => {
        // The first run meets a parked connection (a vendor quota spent for the next 300 ms); the second works.
        if (job.attemptsStarted <= 1) {
          const until = Date.now() + 300;
          parkedUntil.push(until);
          throw new ParkedError('c1', until);
        }
        return { ranAt: Date.now() };
      },
    );
    worker = new Worker('parked', processor, { connection, prefix, concurrency: 1 });
  });
  afterAll(async () => {
    await worker?.close();
    await events?.close();
    await queue?.close();
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  it('given a processor that meets a parked connection, when the job runs, then it is delayed until the park ends without using an attempt, and runs again after it', async () => {
    const failed: string[] = [];
    events.on('failed', ({ failedReason }) => failed.push(failedReason));
    const delayed = new Promise<void>((resolve) => events.once('delayed', () => resolve()));
    const job = await queue.add('pull', { connectionId: 'c1' }, { attempts: 1 });
    await delayed;
    await job.waitUntilFinished(events, 10_000);
    const done = (await queue.getJob(job.id!))!;
    expect(failed).toEqual([]);
    expect(done.attemptsStarted).toBe(2);
    // attempts: 1 — had the park used it, the job would have failed instead of completing.
    expect(done.returnvalue.ranAt).toBeGreaterThanOrEqual(parkedUntil[0]!);
  });
});

describe('defineJob: an announced read is not held behind history holding the connection’s job slots', () => {
  const prefix = testPrefix('define-job-slots');
  const redis = connect();
  const slots = new ConnectionSlots(redis, stateKeys(prefix));
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });
  const jobOf = (id: string, data: object) => ({ id, name: 'pull', data, attemptsMade: 0, opts: {} }) as Job;

  it('given a first sync and a backfill window holding both job slots of a connection, when a read announced by a webhook starts, then it runs at once in one slot beyond them, and a third history job still finds none', async () => {
    const max = 2;
    expect(await slots.take('c1', 'first-sync', max, 30_000)).toBe(true);
    expect(await slots.take('c1', 'backfill-window', max, 30_000)).toBe(true);
    const ran: string[] = [];
    const processor = defineJob(
      'pull',
      z.looseObject({ connectionId: z.string() }),
      {
        logger: pino({ level: 'silent' }),
        metrics: createMetrics(),
        leases: { track: () => () => {} } as unknown as LeaseKeeper,
        jobSlots: { slots, max, leaseMs: 30_000, retryMs: 1_000 },
      },
      async ({ job }) => {
        ran.push(job.id!);
        expect(await slots.running('c1')).toBe(max + 1);
      },
    );
    await processor(jobOf('announced', { connectionId: 'c1', entity: 'invoices', webhook: { batch: 1 } }), 'token');
    expect(ran).toEqual(['announced']);
    // Its slot is given back when it ends; history's limit is unchanged.
    expect(await slots.running('c1')).toBe(max);
    expect(await slots.take('c1', 'another-window', max, 30_000)).toBe(false);
  });
});
