import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { CONNECTION, type Harness, startHarness, until, UPSERT_PATH } from '../support/harness.js';
import { type HttpGate, startHttpGate } from '../support/http-gate.js';

/**
 * Nothing lost when a worker dies twice in a row (a crash loop, an OOM kill, a lost node) while upsert
 * jobs are in flight. The workers reach billing through a gate that holds every invoice write until the test
 * lets it go, so the jobs are mid-request at each kill for as long as the test needs (no latency a loaded
 * machine could outlast), and what a killed worker was sending never reaches billing. The first worker
 * is killed with SIGKILL; a second one takes the stalled jobs back and is killed the same way while it
 * holds them; the gate opens and a third one finishes.
 *
 * - With BullMQ's own limit (maxStalledCount 1) the second stall fails the jobs inside BullMQ's
 *   stalled-job check, where no worker's 'failed' event fires: the in-flight sweep (every 5 s here)
 *   finds them, quarantines them as STALLED, and `erp-sync dlq replay` brings them to billing.
 * - With ours (maxStalledCount 5, the default) the third worker simply finishes them.
 * - With batches of records (`sync.upsertBatchSize` 4) and BullMQ's limit, the failed batches are found by
 *   the same sweep, and each record not yet written goes on as a job of its own: all in billing, none
 *   quarantined (a batch's failure is no one record's).
 * Either way, every record is in billing or in quarantine with its reason at every point: lost 0.
 */
const INVOICES = 24;

for (const variant of [
  { maxStalledCount: 1, expectStalled: true, batch: 1 },
  { maxStalledCount: 5, expectStalled: false, batch: 1 },
  { maxStalledCount: 1, expectStalled: true, batch: 4 },
]) {
  describe(`given upsert jobs of ${variant.batch} record(s) in flight while two workers in a row are killed (maxStalledCount ${variant.maxStalledCount})`, () => {
    let p: Harness;
    let gate: HttpGate;
    beforeAll(async () => {
      gate = await startHttpGate(() => p.billing.url);
      p = await startHarness({
        name: `two-crashes-${variant.maxStalledCount}`,
        invoices: INVOICES,
        customers: 5,
        sync: {
          upsertConcurrency: variant.batch > 1 ? 6 : 64,
          upsertBatchSize: variant.batch,
          maxStalledCount: variant.maxStalledCount,
          sweepEverySeconds: 5,
          sweepGraceSeconds: 1,
        },
        // Past the time the gate holds writes for: a request timed out would be retried.
        billing: { url: gate.url, timeoutMs: 60_000 },
      });
    });
    afterAll(async () => {
      await p?.close();
      await gate?.close();
    });

    it(`when the third worker runs, then every record is in billing${variant.expectStalled ? ` or${variant.batch > 1 ? ' (a record of a single-record job)' : ''} quarantined as STALLED, and in billing after dlq replay` : ''}: lost 0`, async () => {
      const { rt } = p;
      const stalledEvents: string[] = [];
      (await p.queueEvents('upsert')).on('stalled', ({ jobId }) => stalledEvents.push(jobId));
      // Invoice writes wait at the gate; customers' go through (a batch of customers would hold a slot for good).
      gate.hold((req) => req.method === 'POST' && req.url?.split('?')[0] === UPSERT_PATH);

      // Worker 1 pulls the invoices and starts their upserts; killed while they wait on billing.
      const first = await p.spawnWorker(['pull', 'upsert']);
      await rt.queues.pull.add('pull', { connectionId: CONNECTION, entity: 'invoices' }, { priority: 1 });
      // Invoice jobs (customers' go through the gate and finish): with batches, invoice batches, so the
      // pull, which only this worker runs, has enqueued the invoices.
      const active = async () =>
        (await rt.queues.upsert.getJobs(['active'])).filter(
          (j) => j.name === (variant.batch > 1 ? 'upsert-batch' : 'upsert') && j.data.entity === 'invoices',
        ).length >= (variant.batch > 1 ? 3 : 10);
      await until('upsert jobs in flight', active, 60_000, 50);
      first.kill('SIGKILL');
      await first.exited;
      // What was in flight at the kill: the jobs left active with no worker.
      const inFlight = await rt.queues.upsert.getJobs(['active']);
      const inFlightIds = inFlight.map((j) => j.id!);
      const recordsOf = (j: (typeof inFlight)[number]): Array<{ entity: string; erpId: string }> =>
        j.data.records ?? [j.data];
      // Jobs that carry an invoice call billing in worker 2 whatever happened before; a customer's job whose
      // buyer an invoice of worker 1 had already ensured in billing has nothing left to call, and worker 2
      // finishes it at once (its record is written: nothing to lose).
      const mustHold = inFlight.filter((j) => recordsOf(j).some((r) => r.entity === 'invoices')).map((j) => j.id!);
      const inFlightKeys = inFlight
        .flatMap((j) =>
          (j.data.records ?? [j.data]).map((r: { entity: string; erpId: string }) => `${r.entity}:${r.erpId}`),
        )
        .sort();

      // Worker 2 takes them back (stalled → wait → active) and is killed while it holds them. Its jobs are
      // taken back over a few seconds (each lock expires on its own; the stalled check runs every second);
      // the gate still holds their writes, so none finishes before worker 2 took the last.
      const second = await p.spawnWorker(['upsert']);
      await until(
        'worker 2 to hold the stalled jobs',
        async () => {
          const states = await Promise.all(inFlightIds.map((id) => rt.queues.upsert.getJobState(id)));
          const held = (id: string) => states[inFlightIds.indexOf(id)] === 'active';
          if (
            inFlightIds.every((id) => stalledEvents.includes(id)) &&
            // A job with no invoice may also wait its turn for one of the connection's slots (the invoices'
            // jobs hold them): it has nothing in billing to lose, and worker 3 runs it.
            inFlightIds.every((id, i) => {
              const s = states[i];
              return (
                s === 'active' || s === 'completed' || (!mustHold.includes(id) && (s === 'waiting' || s === 'delayed'))
              );
            }) &&
            mustHold.every(held)
          )
            return true;
          // What a timeout reports: each job's state and whether its stall was seen.
          throw new Error(
            inFlightIds
              .map((id, i) => `${id}: ${states[i]}${stalledEvents.includes(id) ? ', stalled' : ''}`)
              .join('; '),
          );
        },
        60_000,
        50,
      );
      second.kill('SIGKILL');
      await second.exited;
      // What worker 2 held at its kill (still active: no worker runs until worker 3). A single-record job
      // stalled out is its record's failure (STALLED); a batch's is no one record's.
      const heldAtKill = await rt.queues.upsert.getJobs(['active']);
      const singleKeys = heldAtKill
        .filter((j) => j.name === 'upsert' && inFlightIds.includes(j.id!))
        .map((j) => `${j.data.entity}:${j.data.erpId}`)
        .sort();
      const stalledKeys = variant.expectStalled ? singleKeys : [];
      // Single-record invoice jobs were held at both kills (the gate let none finish).
      if (variant.batch === 1)
        expect(singleKeys.filter((k) => k.startsWith('invoices:')).length).toBeGreaterThanOrEqual(10);

      // Worker 3, with the gate open (the killed workers' held writes were dropped with their connections).
      gate.release();
      await p.spawnWorker(['upsert']);
      const { mapped } = await p.expectedInvoices();
      const accounted = async () => {
        const billing = p.billingInvoices();
        const quarantined = new Map((await rt.quarantine.list(CONNECTION)).map((q) => [q.erpId, q]));
        const lost = [...mapped.keys()].filter((id) => !billing.has(id) && !quarantined.has(id));
        return { billing, quarantined, lost };
      };
      const settled = await until(
        'every record in billing or in quarantine, nothing in flight',
        async () => {
          const a = await accounted();
          return a.lost.length === 0 && (await rt.inFlight.count(CONNECTION)) === 0 ? a : undefined;
        },
        90_000,
        200,
      );

      expect(settled.lost).toEqual([]);
      expect(await rt.queues.upsert.getJobCounts('failed')).toEqual({ failed: 0 });
      const stalledOut = [...settled.quarantined.values()];
      if (stalledKeys.length) {
        // Exactly the single-record jobs in flight at both kills failed as stalled; each is quarantined with its reason.
        expect(stalledOut.map((q) => `${q.entity}:${q.erpId}`).sort()).toEqual(stalledKeys);
        for (const q of stalledOut)
          expect(q).toMatchObject({
            reason: 'STALLED',
            stage: 'upsert',
            message: 'job stalled more than allowable limit',
          });
        expect(settled.billing.size + stalledOut.filter((q) => q.entity === 'invoices').length).toBe(mapped.size);

        const replay = await runCli(['dlq', 'replay', '--connection', CONNECTION, '--config', await p.configFile()], {
          env: p.secretEnv,
          timeoutMs: 60_000,
        });
        expect(replay.code, replay.err).toBe(0);
        await until(
          'the replayed records in billing',
          async () => p.billingInvoices().size === mapped.size && (await rt.quarantine.count(CONNECTION)) === 0,
          60_000,
          200,
        );
      } else {
        expect(stalledOut).toEqual([]);
      }
      if (variant.batch > 1) {
        // The batches failed in BullMQ's stalled check; their unwritten records went on as jobs of their own.
        const entries = await rt.ledger.getMany(
          CONNECTION,
          'invoices',
          inFlightKeys.filter((k) => k.startsWith('invoices:')).map((k) => k.slice('invoices:'.length)),
        );
        expect(entries.filter((e) => /-x[0-9a-f]{8}$/.test(e?.jobId ?? '')).length).toBeGreaterThan(0);
      }
      const result = await p.compareWithSource();
      expect(result.problems).toEqual([]);
      expect(result.inBilling).toBe(result.expected);
      console.info(
        `[two kill -9] ${inFlight.length} upsert jobs (${inFlightKeys.length} records) in flight at both kills (maxStalledCount ${variant.maxStalledCount}): ` +
          `${stalledOut.length} quarantined as STALLED by the sweep${variant.expectStalled ? ', then in billing after dlq replay' : ''}; ` +
          `${result.inBilling}/${result.expected} in billing; lost 0`,
      );
    }, 240_000);
  });
}
