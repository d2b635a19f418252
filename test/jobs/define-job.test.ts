import { Queue, QueueEvents, Worker } from 'bullmq';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob } from '../../jobs/define-job.js';
import { ParkedError } from '../../src/errors/index.js';
import { createMetrics } from '../../src/observability/metrics.js';
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
