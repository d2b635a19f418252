import { createHash } from 'node:crypto';
import type { Job } from 'bullmq';
import { maxStartedAttempts } from '../../jobs/catalog.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../jobs/runtime.js';
import { InvoiceUpsertBody } from '../../src/billing/schemas/index.js';
import { CONNECTION, type Harness, startHarness, UPSERT_PATH } from '../support/harness.js';

/**
 * P7 (docs/reliability.md): a billing 429 pauses the whole upsert queue — every worker of every
 * process — for Retry-After, and costs the job no attempt (queue.rateLimit + RateLimitError).
 *
 * Setup: two runtimes (two Redis connections, two billing clients: two processes as far as BullMQ is
 * concerned) each run an upsert worker of concurrency 4. A first sync writes every invoice and ensures
 * every customer, so in the measured phase each upsert job makes exactly one billing request. Then
 * every invoice changes at the source and billing answers the next 10 requests with
 * `429 Retry-After: 2`.
 *
 * What "no request inside Retry-After" can mean, precisely. A 429 answered at instant e reaches the
 * job, which sets the queue's rate limit (PX 2000 on the limiter key) at T_set > e and only then moves
 * itself back to wait (a `waiting` event, prev `active`, at t_back > T_set). From T_set on, no worker
 * takes a job until the key expires at T_set + 2000 > e + 2000. The only requests that may still start
 * inside (e, e + 2000) are those of jobs that were already active before T_set: they were taken before
 * the limit existed, and BullMQ's limiter gates taking jobs, not requests of running ones (at most
 * 4 + 4 − 1 of them). So the test maps every billing request to its job (sha256 of the request body =
 * the job's mapped invoice as the client serialises it) and every job to its activations (the queue's
 * event stream, Redis timestamps), and checks: every request starting within 2 s after a 429 comes
 * from an activation that happened before the 429'd job moved back to wait (t_back, an upper bound of
 * T_set), and there are at most 7 of them per 429.
 *
 * One record per job (`upsertBatchSize: 1`): requests are mapped to jobs by their body. With batches a
 * 429 also pauses the requests of batches already running, through the billing budget (billing-budget.test.ts).
 */
const CONCURRENCY = 4;
const WORKERS = 2;
const STORM = 10;
const RETRY_AFTER_MS = 2000;

const ms = (streamId: string) => Number(streamId.split('-')[0]);
const bodyHash = (job: Job) =>
  createHash('sha256')
    .update(JSON.stringify(InvoiceUpsertBody.parse({ invoice: job.data.body.invoice })))
    .digest('hex');

describe('given two upsert workers on separate runtimes (own Redis connections and billing clients), concurrency 4 each', () => {
  let p: Harness;
  let runtimes: Runtime[];
  beforeAll(async () => {
    p = await startHarness({
      name: 'storm',
      invoices: 40,
      sync: { upsertConcurrency: CONCURRENCY, attempts: 8, upsertBatchSize: 1 },
    });
    runtimes = [await p.newRuntime(), await p.newRuntime()];
    p.startWorkers(['pull', 'upsert', 'backfill'], runtimes[0]);
    p.startWorkers(['upsert'], runtimes[1]);
    const { runId } = await p.backfill();
    await p.waitForBackfill(runId, 60_000);
  });
  afterAll(() => p?.close());

  it('when billing answers a storm of 429 with Retry-After 2 s, then no request starts inside Retry-After except from jobs already running, and the limited jobs complete without using an attempt', async () => {
    const { rt } = p;
    const eventsKey = `${p.prefix}:upsert:events`;
    const since = p.journal().at(-1)?.seq ?? 0;
    const startedAt = Date.now();
    const changed = p.zoho.store
      .invoices()
      .filter((i) => i.status !== 'void')
      .map((i) => i.invoice_id);
    for (const id of changed) p.zoho.store.editInvoice(id);
    p.billing.faults.set({ rateLimitNext: STORM, retryAfterSeconds: RETRY_AFTER_MS / 1000 });
    const lastEvent = (await rt.redis.xrevrange(eventsKey, '+', '-', 'COUNT', 1))[0]?.[0] ?? '0-0';
    await rt.queues.pull.add('pull', { connectionId: CONNECTION, entity: 'invoices' }, { priority: 1 });
    await p.waitForDrain(60_000);

    // The measured phase made only upsert calls (one per job attempt).
    const requests = p.billing.journal.list({ since });
    expect(new Set(requests.map((r) => r.path))).toEqual(new Set([UPSERT_PATH]));
    const limited = requests.filter((r) => r.status === 429);
    expect(limited).toHaveLength(STORM);

    // Jobs of this phase by request body, and their activations / moves back to wait.
    const jobs = (await p.upsertJobs(['completed', 'failed'])).filter(
      (j) => j.data.entity === 'invoices' && j.timestamp >= startedAt,
    );
    expect(jobs).toHaveLength(changed.length);
    const byHash = new Map(jobs.map((j) => [bodyHash(j), j]));
    for (const r of requests) expect(byHash.has(r.bodyHash), `request ${r.seq} matches a job`).toBe(true);
    const activations = new Map<string, number[]>();
    const backToWait = new Map<string, number[]>();
    for (const [id, fields] of await rt.redis.xrange(eventsKey, `(${lastEvent}`, '+')) {
      const f = Object.fromEntries(fields.flatMap((v, i) => (i % 2 === 0 ? [[v, fields[i + 1]]] : [])));
      const list =
        f.event === 'active' ? activations : f.event === 'waiting' && f.prev === 'active' ? backToWait : undefined;
      if (list && f.jobId) list.set(f.jobId, [...(list.get(f.jobId) ?? []), ms(id)]);
    }

    const inWindow = new Set<number>();
    let latestStartAfter429 = 0;
    for (const r429 of limited) {
      const e = Date.parse(r429.at);
      const job429 = byHash.get(r429.bodyHash)!;
      const tBack = (backToWait.get(job429.id!) ?? []).find((t) => t >= e - 1);
      expect(tBack, `job ${job429.id} moved back to wait after its 429`).toBeDefined();
      const inside = requests.filter(
        (r) =>
          r.seq !== r429.seq &&
          Date.parse(r.at) - r.durationMs > e &&
          Date.parse(r.at) - r.durationMs < e + RETRY_AFTER_MS,
      );
      expect(inside.length).toBeLessThanOrEqual(WORKERS * CONCURRENCY - 1);
      for (const r of inside) {
        const start = Date.parse(r.at) - r.durationMs;
        const job = byHash.get(r.bodyHash)!;
        const activatedAt = Math.max(...(activations.get(job.id!) ?? []).filter((t) => t <= start + 1));
        expect(activatedAt, `job ${job.id} was activated before its request`).toBeGreaterThan(0);
        expect(
          activatedAt,
          `request ${r.seq} (job ${job.id}) started ${start - e} ms after a 429 from a job taken at ${activatedAt - e} ms`,
        ).toBeLessThanOrEqual(tBack!);
        inWindow.add(r.seq);
        latestStartAfter429 = Math.max(latestStartAfter429, start - e);
      }
    }

    // No attempt consumed: every job completed on its first counted attempt, the limited ones after
    // being started again (attemptsStarted > 1).
    expect(await rt.queues.upsert.getJobCounts('failed')).toEqual({ failed: 0 });
    const limitedJobs = new Set(limited.map((r) => byHash.get(r.bodyHash)!));
    for (const j of limitedJobs) expect(j.attemptsStarted).toBeGreaterThan(1);
    const maxLimited = Math.max(...[...limitedJobs].map((j) => j.attemptsMade));
    const maxOthers = Math.max(...jobs.filter((j) => !limitedJobs.has(j)).map((j) => j.attemptsMade));
    expect(maxLimited).toBeLessThanOrEqual(maxOthers);
    expect(maxLimited).toBe(1);
    expect((await p.compareWithSource()).problems).toEqual([]);
    expect(await rt.quarantine.list(CONNECTION)).toEqual([]);

    console.info(
      `[429 storm] ${limited.length} × 429 (Retry-After ${RETRY_AFTER_MS / 1000} s) over ${jobs.length} jobs on ${WORKERS}×${CONCURRENCY} slots; ` +
        `${inWindow.size} requests started inside a Retry-After window, all from jobs already active (latest ${latestStartAfter429} ms after the 429); ` +
        `${limitedJobs.size} limited jobs completed with attemptsMade ${maxLimited} (others max ${maxOthers})`,
    );
  }, 90_000);
});

/**
 * The other half of P7: a 429 storm that never ends must not keep a job alive (or silently dead)
 * forever. BullMQ fails a job started more than `maxStartedAttempts(attempts)` times with its own
 * UnrecoverableError, which the processor never sees; the worker quarantines it (RETRIES_EXHAUSTED),
 * so the record is listed, explained and replayable like any other. One worker of concurrency 1 keeps
 * the restart cycle at the Retry-After pace (an idle BullMQ worker blocked on the queue's marker would
 * only notice a rate-limited job pushed back to the prioritized set after its drainDelay of 5 s).
 */
describe('given one worker upserting with concurrency 1', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({ name: 'storm-forever', invoices: 10, sync: { upsertConcurrency: 1, attempts: 8 } });
    p.startWorkers(['pull', 'upsert', 'backfill']);
    const { runId } = await p.backfill();
    await p.waitForBackfill(runId, 60_000);
  });
  afterAll(() => p?.close());

  it('when billing answers 429 to every request and never stops, then the job ends in quarantine once its start budget is spent, without using an attempt', async () => {
    const { rt } = p;
    const maxStarted = maxStartedAttempts(p.config.sync.attempts);
    const changed = p.zoho.store
      .invoices()
      .filter((i) => i.status !== 'void')
      .slice(0, 1)
      .map((i) => i.invoice_id);
    for (const id of changed) p.zoho.store.editInvoice(id);
    // Retry-After: 0 ("try again now") keeps the test short; the queue still pauses 100 ms each time.
    p.billing.faults.set({ rateLimitRate: 1, retryAfterSeconds: 0 });
    const t0 = Date.now();
    try {
      await rt.queues.pull.add('pull', { connectionId: CONNECTION, entity: 'invoices' }, { priority: 1 });
      await p.waitForDrain(60_000);
    } finally {
      p.billing.faults.set({});
    }
    const quarantined = (await rt.quarantine.list(CONNECTION)).filter((q) => changed.includes(q.erpId));
    expect(quarantined.map((q) => q.erpId).sort()).toEqual([...changed].sort());
    for (const q of quarantined)
      expect(q).toMatchObject({
        reason: 'RETRIES_EXHAUSTED',
        stage: 'upsert',
        message: 'job started more than allowable limit',
      });
    // The failed job is removed once its record is quarantined (so the record's next enqueue is not
    // deduplicated away); its entry says it was started maxStartedAttempts + 1 times and that the only
    // attempt counted is BullMQ's final failure.
    expect(await rt.queues.upsert.getJobs(['failed'])).toEqual([]);
    for (const q of quarantined)
      expect({ started: q.started, made: q.attempts }).toEqual({ started: maxStarted + 1, made: 1 });
    const refused = p.journal().filter((r) => r.status === 429).length;
    expect(refused).toBe(changed.length * maxStarted);
    console.info(
      `[429 forever] ${changed.length} job(s) each started ${maxStarted + 1} times (${refused} × 429), then quarantined as RETRIES_EXHAUSTED, in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
  }, 90_000);
});
