import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertSchedulers } from '../../app/worker-service.js';
import type { JournalEntry } from '../../sandbox/kit/journal.js';
import { CONNECTION, intervals, maxInFlight, type Harness, startHarness, until } from '../support/harness.js';

/**
 * P13 (docs/reliability.md): N replicas behave like one.
 * - Schedulers: every replica upserts the pull schedulers when it boots; however many boot at once,
 *   there is one scheduler per (connection, entity) and one pending run of each.
 * - Quotas: the vendor budget (here `rateBudget.concurrency: 2`) is held in Redis, so two worker
 *   processes pulling at once never have more than 2 requests in flight at Zoho together. The Zoho
 *   emulator answers every request after 50 ms, and its journal gives each request's interval
 *   (arrival = at − durationMs, answer = at); the in-flight count is computed from those intervals.
 *   The server sees a sub-interval of each client-side request, and a quota slot is only freed after
 *   the client has its answer, so the server-side count can only be lower than the client-side one:
 *   a count of 3 here would be a real breach.
 */
const ENTITIES = ['customers', 'invoices'] as const;
const pending = (jobs: Job[], scheduler: string) =>
  jobs.filter((j) => j.repeatJobKey === scheduler || j.id?.startsWith(`repeat:${scheduler}:`));

describe('given five replicas booting at once', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({ name: 'replicas-boot', invoices: 10 });
  });
  afterAll(() => p?.close());

  it('when each upserts the pull schedulers at the same time, then there is one scheduler per (connection, entity) and one pending run of each', async () => {
    const replicas = [p.rt, ...(await Promise.all([1, 2, 3, 4].map(() => p.newRuntime())))];
    await Promise.all(replicas.map((rt) => upsertSchedulers(rt)));
    await Promise.all(replicas.map((rt) => upsertSchedulers(rt)));
    const schedulers = await p.rt.queues.pull.getJobSchedulers();
    expect(schedulers.map((s) => s.key).sort()).toEqual(ENTITIES.map((e) => `pull-${CONNECTION}-${e}`));
    const jobs = await p.rt.queues.pull.getJobs(['delayed', 'prioritized', 'wait', 'active']);
    for (const s of schedulers) expect(pending(jobs, s.key), `pending runs of ${s.key}`).toHaveLength(1);
    expect(jobs).toHaveLength(ENTITIES.length);
  });
});

describe('given two worker processes started at the same time on one Zoho connection with a budget of 2 requests at once', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({
      name: 'replicas-quota',
      invoices: 40,
      rateBudget: { concurrency: 2 },
      zoho: { faults: { latencyMs: 50 } },
      sync: { pullConcurrency: 4, backfillWindowDays: 30 },
      settings: { detailConcurrency: 3 },
    });
  });
  afterAll(() => p?.close());

  it('when both boot (each upserting the schedulers) and run a backfill together, then one scheduler per entity with one delayed run each, and Zoho never has more than 2 requests in flight', async () => {
    const { rt } = p;
    const workers = await Promise.all([
      p.spawnWorker(['pull', 'upsert', 'backfill']),
      p.spawnWorker(['pull', 'upsert', 'backfill']),
    ]);
    const { runId, children } = await p.backfill();
    await p.waitForBackfill(runId, 120_000);

    // Schedulers: one each, whose first (immediate) run has happened, with exactly one next run delayed.
    const schedulers = await rt.queues.pull.getJobSchedulers();
    expect(schedulers.map((s) => s.key).sort()).toEqual(ENTITIES.map((e) => `pull-${CONNECTION}-${e}`));
    await until(
      'each scheduler to have its next run delayed',
      async () => {
        const jobs = await rt.queues.pull.getJobs(['delayed', 'prioritized', 'wait', 'active']);
        if (schedulers.every((s) => pending(jobs, s.key).length === 1) && jobs.length === schedulers.length)
          return true;
        // What is pending instead, for the failure message.
        const states = await Promise.all(
          jobs.map(async (j) => `${j.id} ${await j.getState()} (delay ${j.delay}, started ${j.attemptsStarted})`),
        );
        throw new Error(`pending: ${states.join('; ')}`);
      },
      // A scheduled run still active (its next run already delayed) finishes first: seconds on a loaded machine.
      30_000,
    );
    const delayed = await rt.queues.pull.getJobs(['delayed']);
    for (const s of schedulers) expect(pending(delayed, s.key), `delayed runs of ${s.key}`).toHaveLength(1);
    const ran = (await rt.queues.pull.getJobs(['completed', 'failed'])).filter((j) => j.id?.startsWith('repeat:'));
    for (const s of schedulers) expect(pending(ran, s.key), `runs of ${s.key} so far`).toHaveLength(1);

    // Both processes did the work (each has Zoho responses in its own metrics) …
    const perProcess = await Promise.all(
      workers.map(async (w) => {
        const url = /erp-sync worker: (\S+\/metrics)/.exec(w.output())?.[1];
        const text = await (await fetch(url!)).text();
        return [...text.matchAll(/^erpsync_vendor_requests_total\{connection="zoho-rel",.*\} (\d+)$/gm)].reduce(
          (a, m) => a + Number(m[1]),
          0,
        );
      }),
    );
    for (const n of perProcess) expect(n).toBeGreaterThan(0);
    // (The test process itself has not called Zoho yet: every Books call in the journal is theirs; the
    // access token, shared in Redis, was fetched once for both.)
    const books = p.zoho.journal.list().filter((e) => e.path.startsWith('/books/'));
    expect(perProcess.reduce((a, n) => a + n, 0)).toBe(books.length);
    expect(p.zoho.journal.list({ path: '/oauth/v2/token' })).toHaveLength(1);
    // … and together they never had more than 2 requests in flight at Zoho (the token endpoint, which
    // is not a Books call, included).
    const journal: JournalEntry[] = p.zoho.journal.list();
    const peak = maxInFlight(journal);
    expect(peak).toBeLessThanOrEqual(2);
    expect(peak).toBe(2);
    const busy = intervals(journal).reduce((a, i) => a + (i.end - i.start), 0);

    const result = await p.compareWithSource();
    expect(result.problems).toEqual([]);
    for (const w of workers) {
      w.kill('SIGTERM');
      expect(await w.exited).toEqual({ code: 0, signal: null });
    }
    console.info(
      `[two replicas] ${schedulers.length} schedulers, 1 delayed run each, 1 run each so far; backfill of ${children} windows; ` +
        `Zoho requests by process ${perProcess.join(' + ')}, journal ${journal.length}, peak in flight ${peak} (budget 2), ` +
        `mean ${(busy / Math.max(1, intervals(journal).at(-1)!.end - intervals(journal)[0]!.start)).toFixed(2)} in flight; ${result.inBilling}/${result.expected} in billing`,
    );
  }, 150_000);
});
