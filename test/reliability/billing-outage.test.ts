import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION, type Harness, startHarness, until, UPSERT_PATH } from '../support/harness.js';

/**
 * P6 (docs/reliability.md): transient 5xx converge, within the written retry budget
 * (jobs/catalog.ts): each billing call is tried at most 1 + 2 times in-process (p-retry), each upsert
 * job at most `sync.attempts` times (BullMQ, exponential backoff with jitter). The billing service
 * answers 503 to everything for 4 s in the middle of a sync; the jobs that hit it wait and complete.
 *
 * One record per job (`upsertBatchSize: 1`): the checks count jobs and the attempts of each; a batch's
 * records keep the promise by leaving it as jobs of their own while billing is down (jobs/upsert/upsert-batch-processor.ts).
 */
const INVOICES = 80;
const ATTEMPTS = 8;
const IN_PROCESS_TRIES = 3;
const OUTAGE_MS = 4000;

describe('given a sync of 80 invoices in progress', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({
      name: 'outage',
      invoices: INVOICES,
      sync: { attempts: ATTEMPTS, backoffMs: 200, upsertConcurrency: 4, upsertBatchSize: 1 },
    });
  });
  afterAll(() => p?.close());

  it('when billing answers 503 to every request for 4 s, then every job waits and completes: all records in billing, none quarantined, attempts within the budget', async () => {
    const { rt } = p;
    p.startWorkers(['pull', 'upsert', 'backfill']);
    const { runId } = await p.backfill();
    await until('the first upserts to reach billing', () => p.upsertPosts() >= 10, 60_000, 10);
    const res = await fetch(`${p.billing.url}/__admin/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ outageForMs: OUTAGE_MS }),
    });
    expect(res.status).toBe(200);
    const outageFrom = Date.now();
    const writtenBefore = p.upsertPosts();
    expect(writtenBefore).toBeLessThan(INVOICES);

    await p.waitForBackfill(runId, 90_000);

    // The outage happened and was felt by the jobs.
    const refused = p.journal().filter((e) => e.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const e of refused) expect(Date.parse(e.at) - outageFrom).toBeLessThanOrEqual(OUTAGE_MS + 1000);

    // Every record ends in billing, with its content; nothing quarantined, nothing failed.
    const result = await p.compareWithSource();
    expect(result.problems).toEqual([]);
    expect(result.inBilling).toBe(result.expected);
    expect(result.expected + result.quarantinedByMapping.size).toBe(INVOICES);
    expect(await rt.quarantine.list(CONNECTION)).toEqual([]);
    expect(await rt.queues.upsert.getJobCounts('failed')).toEqual({ failed: 0 });
    const jobs = await p.upsertJobs(['completed']);
    expect(jobs.filter((j) => j.data.entity === 'invoices').length).toBe(result.expected);

    // Attempts within the budget: no job used more than `attempts` BullMQ attempts (attemptsMade counts
    // the successful one too), and no record cost billing more than attempts × (1 + 2) upsert calls.
    const attempts = jobs.map((j) => j.attemptsMade);
    expect(Math.max(...attempts)).toBeLessThanOrEqual(ATTEMPTS);
    const retried = attempts.filter((a) => a > 1).length;
    expect(retried).toBeGreaterThan(0);
    const callsPerBody = new Map<string, number>();
    for (const e of p.journal(UPSERT_PATH)) callsPerBody.set(e.bodyHash, (callsPerBody.get(e.bodyHash) ?? 0) + 1);
    const maxCalls = Math.max(...callsPerBody.values());
    expect(maxCalls).toBeLessThanOrEqual(ATTEMPTS * IN_PROCESS_TRIES);
    expect(callsPerBody.size).toBe(result.expected);

    console.info(
      `[503 outage] ${OUTAGE_MS / 1000} s outage after ${writtenBefore}/${INVOICES} upserts; ${refused.length} requests answered 503; ` +
        `${retried} jobs needed more than one attempt (max attemptsMade ${Math.max(...attempts)} of ${ATTEMPTS}); ` +
        `max ${maxCalls} upsert calls for one record (budget ${ATTEMPTS * IN_PROCESS_TRIES}); ${result.inBilling}/${result.expected} in billing, 0 quarantined`,
    );
  }, 120_000);
});
