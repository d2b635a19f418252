import { type Job, Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { PullPayload, type QueueName } from '../../../jobs/catalog.js';
import { connectionGate } from '../../../jobs/admission/connection-gate.js';
import { defineJob } from '../../../jobs/define-job.js';
import { makeJobHelpers } from '../../../app/job-helpers.js';
import { resumeConnection } from '../../../operations/resume-connection.js';
import { startWorkers, upsertSchedulers, type WorkerService } from '../../../app/worker-service.js';
import { createLogger } from '../../../src/observability/logger.js';
import { createMetrics } from '../../../src/observability/metrics.js';
import type { ConnectionControl } from '../../../src/pipeline/connection-control.js';
import { CONNECTION, type Harness, SECOND_CONNECTION, startHarness, until } from '../../support/harness.js';

/**
 * The connection gate (jobs/admission/connection-gate.ts) on real BullMQ queues and Redis: the workers run
 * recording processors behind the real gate (defineJob with the runtime's helpers), so a test sees
 * which jobs ran, and which were held, dropped or released, without any vendor or billing traffic.
 */
const Payload = z.object({ connectionId: z.string(), entity: z.string().optional() });
const logger = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent', format: 'json' });

describe('the connection gate: jobs of a paused connection are held until it is resumed', () => {
  let p: Harness;
  let workers: WorkerService;
  const ran: Array<{ queue: string; connectionId: string; entity?: string; jobId: string }> = [];
  const ranOf = (connection: string, queue?: string) =>
    ran.filter((r) => r.connectionId === connection && (!queue || r.queue === queue));

  beforeAll(async () => {
    // The safety-net re-check far away: what releases a held job here is the resume.
    p = await startHarness({
      name: 'connection-gate',
      invoices: 5,
      secondConnection: true,
      sync: { pausedRecheckSeconds: 600 },
    });
    const helpers = makeJobHelpers(p.rt);
    const recording = (queue: QueueName, deps: typeof helpers.pull | typeof helpers.upsert) =>
      defineJob(queue, Payload, deps, async ({ job, data }) => {
        ran.push({ queue, connectionId: data.connectionId, entity: data.entity, jobId: job.id! });
        return { recorded: true };
      });
    workers = startWorkers(p.rt, ['pull', 'upsert'], {
      pull: recording('pull', helpers.pull),
      upsert: recording('upsert', helpers.upsert),
    });
  });
  afterAll(async () => {
    await workers?.stop(2_000);
    await p?.close();
  });

  const upsertData = (connectionId: string, erpId: string) => ({ connectionId, entity: 'invoices', erpId });

  it('given one connection paused, when a pull and an upsert of each connection start, then the other runs, and the paused one is held: delayed, no attempt used, not failed, recorded as held', async () => {
    const { rt } = p;
    await rt.connectionControl.pause(CONNECTION, { reason: 'test' });
    const pull = await rt.queues.pull.add(
      'pull',
      { connectionId: CONNECTION, entity: 'invoices' },
      { jobId: 'held-pull', attempts: 1 },
    );
    const upsert = await rt.queues.upsert.add('upsert', upsertData(CONNECTION, 'e1'), {
      jobId: 'held-upsert',
      attempts: 1,
    });
    await rt.queues.pull.add('pull', { connectionId: SECOND_CONNECTION, entity: 'invoices' }, { jobId: 'other-pull' });
    await rt.queues.upsert.add('upsert', upsertData(SECOND_CONNECTION, 'e2'), { jobId: 'other-upsert' });

    await until('the other connection to run and the paused one to be held', async () => {
      const held = await rt.connectionControl.heldCount(CONNECTION);
      return (
        ranOf(SECOND_CONNECTION).length === 2 &&
        held === 2 &&
        (await pull.getState()) === 'delayed' &&
        (await upsert.getState()) === 'delayed'
      );
    });
    expect(ranOf(CONNECTION)).toEqual([]);
    for (const job of [(await rt.queues.pull.getJob(pull.id!))!, (await rt.queues.upsert.getJob(upsert.id!))!]) {
      const now: Job = job;
      expect(now.attemptsMade, job.id).toBe(0);
      expect(now.failedReason, job.id).toBeFalsy();
      // Held for the safety-net re-check (10 min here), not a short retry.
      expect(now.delay, job.id).toBeGreaterThan(500_000);
    }
  });

  it('when the connection is resumed, then its held jobs run at once (not at their re-check), and one pull is enqueued per entity not already covered by a held pull', async () => {
    const { rt } = p;
    const resumedAt = Date.now();
    const report = await resumeConnection(rt, CONNECTION);
    expect(report).toMatchObject({ connection: CONNECTION, pause: { reason: 'test' }, released: 2, settled: 0 });
    // The held incremental pull of invoices covers invoices: only customers gets a new pull.
    expect(report.pulls.map((x) => x.entity)).toEqual(['customers']);
    await until('the held jobs and the resume pull to run', () => ranOf(CONNECTION).length === 3, 10_000);
    expect(Date.now() - resumedAt).toBeLessThan(10_000);
    expect(ranOf(CONNECTION).map((r) => r.jobId)).toEqual(
      expect.arrayContaining(['held-pull', 'held-upsert', report.pulls[0]!.jobId]),
    );
    expect(await rt.connectionControl.heldCount(CONNECTION)).toBe(0);
    expect(await rt.connectionControl.state(CONNECTION)).toEqual({ state: 'running' });
  });

  it('given a paused connection, when its scheduled pulls start, then each run is dropped (not run, not held), each scheduler keeps one pending run, and the resume pulls each entity once', async () => {
    const { rt } = p;
    ran.length = 0;
    await rt.connectionControl.pause(CONNECTION);
    await upsertSchedulers(rt); // each scheduler's first run is due at once, then hourly
    const mine = [`pull-${CONNECTION}-customers`, `pull-${CONNECTION}-invoices`];
    expect((await rt.queues.pull.getJobSchedulers()).map((s) => s.key)).toEqual(expect.arrayContaining(mine));
    const pendingOf = async (key: string) =>
      (await rt.queues.pull.getJobs(['wait', 'prioritized', 'active', 'delayed'])).filter(
        (j) => j.repeatJobKey === key || j.id?.startsWith(`repeat:${key}:`),
      );
    await until(
      'the other connection to run its scheduled pulls, and the paused one to have dropped its first runs',
      async () => {
        if (ranOf(SECOND_CONNECTION, 'pull').length < 2) return false;
        for (const key of mine) {
          const pending = await pendingOf(key);
          // Only the scheduler's next run, an hour away: the first one started, and was dropped.
          if (pending.length !== 1 || pending[0]!.delay < 30 * 60_000) return false;
        }
        return true;
      },
    );
    expect(ranOf(CONNECTION)).toEqual([]);
    expect(await rt.connectionControl.heldCount(CONNECTION)).toBe(0);
    const finished = (await rt.queues.pull.getJobs(['completed', 'failed'])).filter((j) =>
      mine.includes(j.repeatJobKey ?? ''),
    );
    expect(finished).toEqual([]);

    const report = await resumeConnection(rt, CONNECTION);
    expect(report.released).toBe(0);
    expect(report.pulls.map((x) => x.entity).sort()).toEqual(['customers', 'invoices']);
    await until('one pull per entity after the resume', () => ranOf(CONNECTION, 'pull').length === 2, 10_000);
    expect(
      ranOf(CONNECTION, 'pull')
        .map((r) => r.entity)
        .sort(),
    ).toEqual(['customers', 'invoices']);
    for (const key of mine) expect(await pendingOf(key)).toHaveLength(1);
  });
});

describe('the connection gate, in its own worker', () => {
  let p: Harness;
  let queue: Queue;
  const workers: Worker[] = [];
  const ran: string[] = [];

  beforeAll(async () => {
    p = await startHarness({ name: 'connection-gate-own', invoices: 1 });
    queue = new Queue('gated', { connection: p.rt.workerOptions().connection, prefix: p.prefix });
  });
  afterAll(async () => {
    for (const w of workers) await w.close();
    await queue?.close();
    await p?.close();
  });

  const worker = (control: Pick<ConnectionControl, 'holdIfPaused' | 'released'>, recheckSeconds: number) => {
    const gate = connectionGate(control, { recheckSeconds });
    const processor = defineJob(
      'gated',
      PullPayload,
      { logger, metrics: createMetrics(), connectionGate: gate },
      async ({ job }) => {
        ran.push(job.id!);
        return { ran: true };
      },
    );
    const w = new Worker('gated', processor, { ...p.rt.workerOptions(), concurrency: 1 });
    workers.push(w);
    // Closed as its test ends, passed or failed: a worker left running would take the next test's jobs on
    // the same queue behind its own gate (one failed test then failed the two after it).
    onTestFinished(() => w.close());
    return w;
  };

  it('given a resume that happens while a job is being held (after its first look, before its move), then the job releases itself and runs at once', async () => {
    // The first look sees the pause; the second, after the move, sees the resume.
    let looks = 0;
    const control = {
      holdIfPaused: async () => (looks++ === 0 ? { since: Date.now() } : undefined),
      released: async () => {},
    };
    worker(control, 600);
    const job = await queue.add(
      'pull',
      { connectionId: CONNECTION, entity: 'invoices' },
      { jobId: 'race', attempts: 1 },
    );
    // Completed, not only started: BullMQ counts the attempt when it finishes the job, after the processor.
    await until(
      'the job to have run',
      async () => ran.includes('race') && (await job.getState()) === 'completed',
      10_000,
    );
    expect(looks).toBe(3); // held once (two looks), then admitted
    expect((await queue.getJob(job.id!))?.attemptsMade).toBe(1);
  });

  it('given a connection paused for an hour already, when a job of it starts, then it is held for about an hour (its starts stay few however long the pause)', async () => {
    const { rt } = p;
    await rt.connectionControl.pause(CONNECTION, {}, Date.now() - 3_600_000);
    worker(rt.connectionControl, 1);
    const job = await queue.add('pull', { connectionId: CONNECTION, entity: 'invoices' }, { jobId: 'long-pause' });
    await until(
      'the job to be held',
      async () => (await job.getState()) === 'delayed' && (await rt.connectionControl.heldCount(CONNECTION)) === 1,
      10_000,
    );
    const delay = (await queue.getJob(job.id!))!.delay;
    expect(delay).toBeGreaterThan(0.85 * 3_600_000);
    expect(delay).toBeLessThan(1.15 * 3_600_000);
    // (This queue is not one the resume knows: the job is moved on by hand.)
    await rt.connectionControl.resume(CONNECTION);
    await job.promote();
    await until('the job to run once promoted', () => ran.includes('long-pause'), 10_000);
  });

  it('given a resume that released nothing (the held jobs not released), then a held job still runs on its own at its re-check', async () => {
    const { rt } = p;
    await rt.connectionControl.pause(CONNECTION);
    worker(rt.connectionControl, 1);
    const job = await queue.add('pull', { connectionId: CONNECTION, entity: 'invoices' }, { jobId: 'net' });
    await until('the job to be held', async () => (await job.getState()) === 'delayed', 10_000);
    await rt.connectionControl.resume(CONNECTION); // the store only: nothing promotes the job
    await until(
      'the job to have run at its re-check',
      async () => ran.includes('net') && (await job.getState()) === 'completed',
      10_000,
    );
    expect((await queue.getJob(job.id!))?.attemptsMade).toBe(1);
  });
});
