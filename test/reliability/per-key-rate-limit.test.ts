import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBackfill } from '../../jobs/backfill/backfill-processor.js';
import { maxStartedAttempts } from '../../jobs/catalog.js';
import type { WorkerService } from '../../app/worker-service.js';
import { billingKeyId } from '../../src/billing/billing-target.js';
import { ACME, CONNECTION, GLOBEX, HISTORY, type Harness, startHarness } from '../support/harness.js';
import { until } from '../support/until.js';

const UPSERT = '/external/invoice/upsert';
const CONCURRENCY = 8;

/**
 * `billing.rateLimit.scope: key`, for a service that limits each key on its own: every billing key has
 * its own budget in Redis, and a 429 on one key pauses that key alone. Two connections on two
 * companies' keys, one worker process, real Redis and the real billing emulator.
 */
describe('per billing key rate limits (rateLimit.scope: key)', () => {
  describe("given acme's key answered 429 (Retry-After 60 s) on every request", () => {
    let tc: Harness;
    let workers: WorkerService;
    const setFaults = async (faults: object) => {
      const res = await fetch(`${tc.billing.url}/__admin/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(faults),
      });
      if (!res.ok) throw new Error(`faults: ${res.status} ${await res.text()}`);
    };
    const synced = async (c: typeof ACME | typeof GLOBEX) => {
      const ledger = await tc.rt.ledger.count(c.connection, 'invoices');
      return (
        ledger > 0 && (await tc.rt.inFlight.count(c.connection)) === 0 && tc.invoicesOf(c.company).length === ledger
      );
    };

    beforeAll(async () => {
      tc = await startHarness({
        name: 'per-key-429',
        companies: 'two',
        invoices: 40,
        billing: { rateLimit: { scope: 'key', max: 5000 } },
        sync: { upsertConcurrency: CONCURRENCY },
      });
      await setFaults({ keys: [tc.keys.acme], rateLimitRate: 1, retryAfterSeconds: 60 });
      workers = tc.startWorkers(['pull', 'upsert', 'backfill']);
    }, 60_000);
    afterAll(async () => {
      await workers?.stop(5_000);
      await tc?.close();
    });

    it("when both connections are backfilled, then globex's upserts flow to the end while acme's wait, without the upsert queue being paused, and acme's key is asked at most once per job in flight", async () => {
      for (const c of [ACME, GLOBEX])
        await addBackfill(tc.rt, { connectionId: c.connection, entities: ['customers', 'invoices'], ...HISTORY });
      // Under `scope: deployment` a 429 pauses the whole upsert queue for its Retry-After (60 s): globex
      // would wait with acme, and this would time out.
      await until('globex synced in full while acme is throttled', () => synced(GLOBEX), 30_000, 200);
      expect(tc.invoicesOf(ACME.company)).toEqual([]);
      const acmeRequests = tc.billing.journal.list().filter((e) => e.key === tc.keys.acme);
      expect(acmeRequests.length).toBeGreaterThan(0);
      expect(acmeRequests.every((e) => e.status === 429)).toBe(true);
      // Only jobs already past their slot when the first 429 paused the key met it; the rest waited.
      expect(acmeRequests.length).toBeLessThanOrEqual(CONCURRENCY);
      expect(tc.billing.journal.list().filter((e) => e.key === tc.keys.globex && e.status === 429)).toEqual([]);
      // The queue-wide limiter is not holding anything beyond its own 1 s window.
      expect(await tc.redis.pttl(tc.rt.queues.upsert.keys.limiter!)).toBeLessThanOrEqual(1_000);
      // Acme's jobs wait delayed for a slot after the pause, without using attempts.
      const delayed = (await tc.rt.queues.upsert.getDelayed()).filter((j) => j.data.connectionId === ACME.connection);
      expect(delayed.length).toBeGreaterThan(0);
      for (const j of delayed) expect(j.attemptsMade).toBe(0);
    }, 60_000);

    it("when acme's key answers again and its pause is over, then acme's records are written in full, none quarantined", async () => {
      await setFaults({});
      // Stands for the 60 s passing: the key's pause is dropped and its delayed jobs woken now. Woken again
      // while waiting: a job that read the pause just before it was dropped puts itself back until the
      // pause's end (60 s on), which has, as far as this test is concerned, already come.
      await tc.redis.del(tc.rt.keys.billingKeyBudget(billingKeyId(tc.keys.acme)));
      await until(
        'acme synced in full',
        async () => {
          await tc.rt.queues.upsert.promoteJobs();
          return synced(ACME);
        },
        30_000,
        200,
      );
      expect(await tc.rt.quarantine.list(ACME.connection)).toEqual([]);
      expect(
        tc.billing.journal.list({ path: UPSERT }).filter((e) => e.key === tc.keys.acme && e.status === 200).length,
      ).toBe(await tc.rt.ledger.count(ACME.connection, 'invoices'));
    }, 60_000);
  });

  describe('given each key allowed 10 calls a second', () => {
    let tc: Harness;
    const workers: WorkerService[] = [];
    beforeAll(async () => {
      tc = await startHarness({
        name: 'per-key-budget',
        companies: 'two',
        invoices: 40,
        billing: { rateLimit: { scope: 'key', max: 10, durationMs: 1000 } },
        // Far more jobs of each key at once than its window takes, however slowly the machine runs them.
        sync: { upsertConcurrency: 64 },
      });
      workers.push(tc.startWorkers(['pull', 'backfill']));
    }, 60_000);
    afterAll(async () => {
      for (const w of workers) await w.stop(5_000);
      await tc?.close();
    });

    it("when both connections are backfilled together, then each key's jobs are spread over windows of 10 (set aside for their slot, no attempt used) and everything is written, none quarantined", async () => {
      const runs = await Promise.all(
        [ACME, GLOBEX].map((c) =>
          addBackfill(tc.rt, { connectionId: c.connection, entities: ['customers', 'invoices'], ...HISTORY }),
        ),
      );
      // Every record pulled and its upsert queued before an upsert worker starts, so each key's jobs ask for
      // slots together (up to 64 at once), not at whatever pace the pulls of a loaded machine let them come:
      // more than a window holds, whatever the machine's speed.
      await until(
        'both backfills pulled, their upserts queued',
        async () => {
          for (const { runId } of runs)
            if (!(await (await tc.rt.queues.backfill.getJob(runId))?.isCompleted())) return false;
          return true;
        },
        60_000,
        100,
      );
      workers.push(tc.startWorkers(['upsert']));
      for (const { runId } of runs) await tc.waitForBackfill(runId, 60_000);
      const jobs = await tc.rt.queues.upsert.getJobs(['completed'], 0, -1);
      for (const c of [ACME, GLOBEX]) {
        const own = jobs.filter((j) => j.data.connectionId === c.connection);
        const ledger = await tc.rt.ledger.count(c.connection, 'invoices');
        expect(tc.invoicesOf(c.company).length).toBe(ledger);
        expect(await tc.rt.quarantine.list(c.connection)).toEqual([]);
        // Slots: at most 10 jobs of the key per 1 s window, so its invoices are written over at least this long.
        const invoiceJobs = own.filter((j) => j.data.entity === 'invoices').length;
        const posts = tc.billing.journal
          .list({ path: UPSERT })
          .filter((e) => e.key === tc.keys[c === ACME ? 'acme' : 'globex'])
          .map((e) => Date.parse(e.at));
        expect(Math.max(...posts) - Math.min(...posts), c.connection).toBeGreaterThanOrEqual(
          (Math.ceil(invoiceJobs / 10) - 2) * 1000,
        );
        // Jobs set aside for a later slot were started again without using an attempt.
        expect(own.some((j) => j.attemptsStarted > j.attemptsMade)).toBe(true);
        expect(own.every((j) => j.attemptsMade <= 1)).toBe(true);
      }
    }, 90_000);
  });

  /**
   * The start budget holds per key too: a 429 storm on a key that never ends quarantines the job once
   * its starts are spent (each 429 costs one start: the job waits for a slot after the key's pause).
   * One worker of concurrency 1, Retry-After 0 (a 100 ms pause) to keep it short.
   */
  describe('given one worker upserting with concurrency 1', () => {
    let p: Harness;
    beforeAll(async () => {
      p = await startHarness({
        name: 'per-key-forever',
        invoices: 10,
        sync: { upsertConcurrency: 1, attempts: 8 },
        billing: { rateLimit: { scope: 'key', max: 5000, durationMs: 1000 } },
      });
      p.startWorkers(['pull', 'upsert', 'backfill']);
      const { runId } = await p.backfill();
      await p.waitForBackfill(runId, 60_000);
    }, 90_000);
    afterAll(() => p?.close());

    it('when billing answers 429 to every request of the key and never stops, then the job ends in quarantine once its start budget is spent, without using an attempt', async () => {
      const maxStarted = maxStartedAttempts(p.config.sync.attempts, 'key');
      const [edited] = p.zoho.store.invoices().filter((i) => i.status !== 'void');
      p.zoho.store.editInvoice(edited!.invoice_id);
      p.billing.faults.set({ rateLimitRate: 1, retryAfterSeconds: 0 });
      try {
        await p.rt.queues.pull.add('pull', { connectionId: CONNECTION, entity: 'invoices' }, { priority: 1 });
        await p.waitForDrain(60_000);
      } finally {
        p.billing.faults.set({});
      }
      const q = (await p.rt.quarantine.list(CONNECTION)).find((e) => e.erpId === edited!.invoice_id);
      expect(q).toMatchObject({
        reason: 'RETRIES_EXHAUSTED',
        stage: 'upsert',
        message: 'job started more than allowable limit',
        started: maxStarted + 1,
        attempts: 1,
      });
      expect(p.journal().filter((r) => r.status === 429).length).toBe(maxStarted);
    }, 90_000);
  });
});
