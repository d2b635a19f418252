import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT_UNSETTLED, SHUTDOWN_MARGIN_MS } from '../../cli/wait-for-shutdown.js';
import { type ChildWorker, CONNECTION, type Pipeline, startPipeline, until } from '../support/pipeline.js';
import { type RestartableRedis, restartableRedis } from '../support/restartable-redis.js';

/**
 * Stopping a worker whose Redis is gone (a `docker compose down`, a node drain: Redis stops first and
 * SIGTERM comes two seconds later). BullMQ's Worker.close() does not settle without Redis, so the
 * worker bounds its whole shutdown by `sync.graceSeconds` plus a fixed margin: it exits by then, with
 * the documented code and one line naming what did not settle. Nothing is lost: a new worker, Redis
 * back, takes back what the stopped one held (stalled-job recovery, the in-flight sweep) and every
 * record reaches billing once.
 *
 * The test's own redis-server (append-only, fsync on every write) is stopped and started again.
 */
const GRACE_SECONDS = 3;
const INVOICES = 120;
/** The contract: out by graceSeconds + the margin; what is left over is process teardown on a loaded machine. */
const EXIT_BOUND_MS = GRACE_SECONDS * 1000 + SHUTDOWN_MARGIN_MS + 2_000;
/** Kubernetes' default readiness probe timeout. */
const PROBE_BOUND_MS = 1_000;
/** The delay the report describes between Redis stopping and SIGTERM: part of the scenario, not a wait. */
const SIGNAL_AFTER_REDIS_MS = 2_000;

describe('given a worker process whose Redis stops two seconds before SIGTERM', () => {
  let redis: RestartableRedis;
  let p: Pipeline;

  beforeAll(async () => {
    redis = await restartableRedis('redis-gone');
    await redis.start();
    p = await startPipeline({ name: 'redis-gone', invoices: INVOICES, redisUrl: redis.url, sync: { graceSeconds: GRACE_SECONDS } });
    // The test's inspection connection reconnects by itself once Redis is back; its errors meanwhile are expected.
    p.redis.on('error', () => {});
  });
  afterAll(async () => {
    await redis?.start();
    await p?.close().catch(() => {});
    await redis?.close();
  });
  beforeEach(async () => {
    await redis.start();
    p.billing.faults.set({});
  });

  /** SIGTERM the given time after Redis stopped; resolves with how and when the worker ended. */
  const stopRedisThenSignal = async (worker: ChildWorker) => {
    await redis.stop();
    await sleep(SIGNAL_AFTER_REDIS_MS);
    const signalled = Date.now();
    worker.kill('SIGTERM');
    // A worker still running well past the bound is the failure under test: ended here, reported as such.
    const exit = await Promise.race([worker.exited, sleep(EXIT_BOUND_MS * 3).then(() => undefined)]);
    if (!exit) {
      worker.kill('SIGKILL');
      await worker.exited;
      throw new Error(`the worker was still running ${EXIT_BOUND_MS * 3} ms after SIGTERM:\n${worker.output().slice(-3000)}`);
    }
    return { ...exit, ms: Date.now() - signalled };
  };

  const deadlineLines = (worker: ChildWorker) =>
    worker
      .output()
      .split('\n')
      .filter((l) => l.includes('shutdown deadline passed'));

  /** Redis back and a new worker: every invoice in billing exactly once (billingInvoices() refuses two of one ERP id). */
  const everyRecordInBillingAfterRestart = async (runId?: string) => {
    await redis.start();
    await until('the test runtime back on Redis', async () => (await p.rt.redis.ping()) === 'PONG', 30_000, 100);
    const next = await p.spawnWorker(['pull', 'upsert', 'backfill']);
    if (runId) await p.waitForBackfill(runId, 90_000);
    else await p.waitForDrain(90_000);
    const result = await p.compareWithSource();
    next.kill('SIGTERM');
    expect(await next.exited).toEqual({ code: 0, signal: null });
    expect(result.problems).toEqual([]);
    expect(result.inBilling).toBe(result.expected);
    return result;
  };

  it('when jobs are running, then it exits within graceSeconds + the margin with the documented code and one line, and a new worker brings every record to billing', async () => {
    p.billing.faults.set({ latencyMs: 300 });
    const worker = await p.spawnWorker(['pull', 'upsert', 'backfill']);
    const { runId } = await p.backfill();
    await until('upserts under way', async () => (await p.rt.ledger.count(CONNECTION, 'invoices')) >= 10, 60_000, 20);
    const inLedger = await p.rt.ledger.count(CONNECTION, 'invoices');
    const exit = await stopRedisThenSignal(worker);

    expect(exit.signal).toBeNull();
    expect(exit.code, `${exit.ms} ms\n${worker.output().slice(-1500)}`).toBe(EXIT_UNSETTLED);
    expect(exit.ms).toBeLessThan(EXIT_BOUND_MS);
    expect(deadlineLines(worker)).toHaveLength(1);
    expect(inLedger).toBeLessThan(INVOICES);
    const result = await everyRecordInBillingAfterRestart(runId);
    console.info(
      `[redis gone, jobs running] ${inLedger}/${INVOICES} in the ledger at the stop; exit ${exit.code} ${exit.ms} ms after SIGTERM (bound ${EXIT_BOUND_MS}); ` +
        `${deadlineLines(worker)[0]}; after the restart ${result.inBilling}/${result.expected} in billing`,
    );
  }, 180_000);

  it('when it is idle, then it exits within graceSeconds + the margin with the documented code, and the next worker finds everything in billing', async () => {
    const worker = await p.spawnWorker(['pull', 'upsert', 'backfill']);
    await p.waitForDrain(60_000);
    const exit = await stopRedisThenSignal(worker);

    expect(exit.signal).toBeNull();
    expect(exit.code, `${exit.ms} ms\n${worker.output().slice(-1500)}`).toBe(EXIT_UNSETTLED);
    expect(exit.ms).toBeLessThan(EXIT_BOUND_MS);
    expect(deadlineLines(worker)).toHaveLength(1);
    const result = await everyRecordInBillingAfterRestart();
    console.info(
      `[redis gone, idle] exit ${exit.code} ${exit.ms} ms after SIGTERM (bound ${EXIT_BOUND_MS}); ${deadlineLines(worker)[0]}; after the restart ${result.inBilling}/${result.expected} in billing`,
    );
  }, 180_000);
});
