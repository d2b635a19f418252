import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT_UNSETTLED, SHUTDOWN_MARGIN_MS } from '../../cli/wait-for-shutdown.js';
import { READY_REDIS_TIMEOUT_MS } from '../../app/service.js';
import { backfillArgs } from '../support/cli-backfill-and-reconcile.js';
import { runCli, spawnCli } from '../support/cli.js';
import { type ChildWorker, CONNECTION, type Harness, startHarness, until } from '../support/harness.js';
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
/** The idle worker's grace period: long, so that waiting for it shows. */
const IDLE_GRACE_SECONDS = 60;
/** The contract: out by graceSeconds + the margin; what is left over is process teardown on a loaded machine. */
const EXIT_BOUND_MS = GRACE_SECONDS * 1000 + SHUTDOWN_MARGIN_MS + 2_000;
/** Kubernetes' default readiness probe timeout, reported beside each probe's time. */
const PROBE_BOUND_MS = 1_000;
/** The delay the report describes between Redis stopping and SIGTERM: part of the scenario, not a wait. */
const SIGNAL_AFTER_REDIS_MS = 2_000;

describe("given a Redis of the test's own that stops two seconds before SIGTERM", () => {
  let redis: RestartableRedis;
  beforeAll(async () => {
    redis = await restartableRedis('redis-gone');
    await redis.start();
  });
  afterAll(() => redis?.close());
  beforeEach(async () => {
    redis.thaw();
    await redis.start();
  });

  /** A pipeline on that Redis, closed (Redis up) after the tests of the describe that calls it. */
  const pipelineOnRedis = (name: string, graceSeconds = GRACE_SECONDS) => {
    const holder: { p?: Harness } = {};
    beforeAll(async () => {
      holder.p = await startHarness({
        name,
        invoices: INVOICES,
        redisUrl: redis.url,
        sync: { graceSeconds },
      });
      // The test's inspection connection reconnects by itself once Redis is back; its errors meanwhile are expected.
      holder.p.redis.on('error', () => {});
    });
    afterAll(async () => {
      redis.thaw();
      await redis.start();
      await holder.p?.close().catch(() => {});
    });
    return () => holder.p!;
  };

  describe('given a worker process', () => {
    const pipeline = pipelineOnRedis('redis-gone');
    let p: Harness;
    beforeEach(() => {
      p = pipeline();
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
        throw new Error(
          `the worker was still running ${EXIT_BOUND_MS * 3} ms after SIGTERM:\n${worker.output().slice(-3000)}`,
        );
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

    it('when Redis stops, and when it stops answering, then every /readyz probe answers 503 naming Redis without waiting for it, and 200 once it is back', async () => {
      const worker = await p.spawnWorker(['pull', 'upsert', 'backfill']);
      await worker.waitForOutput('erp-sync worker: ');
      const url = `${/erp-sync worker: (\S+)\/metrics/.exec(worker.output())![1]}/readyz`;
      const probe = async () => {
        const started = Date.now();
        const r = await fetch(url, { signal: AbortSignal.timeout(5_000) });
        const body = (await r.json()) as { checks: Record<string, { ok: boolean; detail?: string }> };
        return { status: r.status, ms: Date.now() - started, redis: body.checks.redis };
      };
      const ready = () => until('/readyz 200', async () => (await probe()).status === 200, 30_000, 100);
      /** Five probes, half a second apart: the client's reconnect backoff grows meanwhile. */
      const probes = async () => {
        const out: Array<Awaited<ReturnType<typeof probe>>> = [];
        for (let i = 0; i < 5; i++) {
          out.push(await probe());
          await sleep(500);
        }
        return out;
      };
      await ready();
      const up = await probe();

      await redis.stop();
      const stopped = await probes();
      await redis.start();
      await ready();

      redis.freeze();
      const frozen = await probes();
      redis.thaw();
      await ready();
      worker.kill('SIGTERM');
      expect(await worker.exited).toEqual({ code: 0, signal: null });

      for (const r of [...stopped, ...frozen]) {
        expect(r.status).toBe(503);
        expect(r.redis?.ok).toBe(false);
      }
      // Each answer says why it did not wait for Redis, and each reason bounds the wait by construction: a
      // client not connected is answered at once; otherwise the checks are cut off at READY_REDIS_TIMEOUT_MS
      // (half the probe's 1 s). Said by the answers rather than by the probes' wall-clock time, which on a
      // loaded machine measures the machine. A probe that waited for Redis would not answer before the
      // probe's own 5 s abort, and fail here.
      // Right after the stop the client may not have seen its connection close yet: then the PING times out.
      // A frozen Redis answers nothing: the PING times out, or the client has already dropped the connection.
      const noAnswer = `Redis: no answer within ${READY_REDIS_TIMEOUT_MS} ms`;
      // A client not connected names its state (closed, reconnecting, connecting), also when the connection
      // dropped while the checks ran.
      const notConnected = /^Redis: not connected \(client (close|reconnecting|connecting|connect|wait)\)$/;
      for (const r of [...stopped, ...frozen])
        expect(r.redis?.detail === noAnswer || notConnected.test(r.redis?.detail ?? ''), r.redis?.detail).toBe(true);
      console.info(
        `[readyz] up ${up.ms} ms; Redis stopped: ${stopped.map((r) => `${r.status} ${r.ms} ms`).join(', ')}; ` +
          `Redis frozen: ${frozen.map((r) => `${r.status} ${r.ms} ms`).join(', ')} (bound ${PROBE_BOUND_MS} ms)`,
      );
    }, 120_000);
  });

  describe('given an idle worker process whose grace period is a minute', () => {
    const pipeline = pipelineOnRedis('redis-gone-idle', IDLE_GRACE_SECONDS);

    it('when Redis stops and SIGTERM comes, then it exits 0 at once (nothing in flight to hand back: no wait for the grace period or for Redis), with one line saying why, and the next worker finds everything in billing', async () => {
      const p = pipeline();
      const worker = await p.spawnWorker(['pull', 'upsert', 'backfill']);
      await p.waitForDrain(60_000);
      await redis.stop();
      await sleep(SIGNAL_AFTER_REDIS_MS);
      const signalled = Date.now();
      worker.kill('SIGTERM');
      // Ended here if it waits for its grace period, as it did: the failure under test, reported as such.
      const exit = await Promise.race([worker.exited, sleep(IDLE_GRACE_SECONDS * 1000).then(() => undefined)]);
      if (!exit) {
        worker.kill('SIGKILL');
        await worker.exited;
        throw new Error(
          `the idle worker was still running ${IDLE_GRACE_SECONDS} s after SIGTERM:\n${worker.output().slice(-2000)}`,
        );
      }
      const ms = Date.now() - signalled;
      const why = worker
        .output()
        .split('\n')
        .filter((l) => l.includes('Redis unreachable and no job in flight'));

      expect(exit, worker.output().slice(-1500)).toEqual({ code: 0, signal: null });
      // Well before the grace period (a minute) and the deadline: the bound is not a timing the test races.
      expect(ms).toBeLessThan((IDLE_GRACE_SECONDS * 1000) / 2);
      expect(why).toHaveLength(1);
      expect(worker.output()).not.toContain('shutdown deadline passed');

      await redis.start();
      await until('the test runtime back on Redis', async () => (await p.rt.redis.ping()) === 'PONG', 30_000, 100);
      const next = await p.spawnWorker(['pull', 'upsert', 'backfill']);
      await p.waitForDrain(90_000);
      const result = await p.compareWithSource();
      next.kill('SIGTERM');
      expect(await next.exited).toEqual({ code: 0, signal: null });
      expect(result.problems).toEqual([]);
      expect(result.inBilling).toBe(result.expected);
      console.info(
        `[redis gone, idle] exit ${exit.code} ${ms} ms after SIGTERM (grace ${IDLE_GRACE_SECONDS} s); ${why[0]}`,
      );
    }, 180_000);
  });

  describe('given `erp-sync backfill` running its workers in-process', () => {
    const pipeline = pipelineOnRedis('redis-gone-backfill');

    it('when SIGTERM comes, then it exits at once with 128 + 15 and one line, and the same backfill run again with Redis back brings every record to billing once', async () => {
      const p = pipeline();
      p.billing.faults.set({ latencyMs: 300 });
      const args = backfillArgs(await p.configFile());
      const run = spawnCli(args, { env: p.secretEnv, timeoutMs: 120_000 });
      await until('upserts under way', async () => (await p.rt.ledger.count(CONNECTION, 'invoices')) >= 10, 60_000, 20);
      await redis.stop();
      await sleep(SIGNAL_AFTER_REDIS_MS);
      const signalled = Date.now();
      run.kill('SIGTERM');
      const exit = await run.exit;
      const exitMs = Date.now() - signalled;

      expect(exit.signal).toBeNull();
      expect(exit.code, exit.err).toBe(128 + 15);
      expect(exitMs).toBeLessThan(EXIT_BOUND_MS);
      expect(
        exit.err
          .trim()
          .split('\n')
          .filter((l) => l.includes('interrupted by SIGTERM')),
      ).toHaveLength(1);

      await redis.start();
      p.billing.faults.set({});
      const again = await runCli(args, { env: p.secretEnv, timeoutMs: 120_000 });
      expect(again.code, again.err).toBe(0);
      const result = await p.compareWithSource();
      expect(result.problems).toEqual([]);
      expect(result.inBilling).toBe(result.expected);
      console.info(
        `[redis gone, backfill] exit ${exit.code} ${exitMs} ms after SIGTERM (bound ${EXIT_BOUND_MS}); stderr: ${exit.err.trim()}; ` +
          `run again: exit ${again.code}, ${result.inBilling}/${result.expected} in billing`,
      );
    }, 180_000);
  });
});
