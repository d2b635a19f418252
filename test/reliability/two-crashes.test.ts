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

      // The invoice records whose writes wait at the gate now: each is a job blocked on its write (it cannot
      // finish, fail or be put back while it waits), so it is active for as long as the gate holds it.
      const heldAtGate = () =>
        new Set(gate.heldBodies().map((b) => (b as { invoice?: { erpId?: string } }).invoice?.erpId ?? ''));

      // Worker 1 pulls the invoices and starts their upserts; killed while their writes wait at the gate.
      const first = await p.spawnWorker(['pull', 'upsert']);
      await rt.queues.pull.add('pull', { connectionId: CONNECTION, entity: 'invoices' }, { priority: 1 });
      const minHeld = variant.batch > 1 ? 3 : 10;
      await until('invoice writes held at the gate', async () => heldAtGate().size >= minHeld, 60_000, 50);
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
      const mustHold = inFlight.filter((j) => recordsOf(j).some((r) => r.entity === 'invoices'));
      const inFlightKeys = inFlight.flatMap((j) => recordsOf(j).map((r) => `${r.entity}:${r.erpId}`)).sort();
      // The dead worker's held writes leave the gate as their connections close: what it holds from now on is worker 2's.
      await until('worker 1 writes dropped at the gate', async () => gate.held() === 0, 60_000, 50);

      // Worker 2 takes them back (stalled → wait → active) and is killed while it holds every one of them at
      // the gate. BullMQ's 'active' alone is not enough: a job taken back may still go back to the queue for a
      // while (a lease of worker 1's not yet expired), and would then be waiting, not held, at the kill.
      const second = await p.spawnWorker(['upsert']);
      await until(
        'worker 2 to hold the stalled invoice jobs at the gate',
        async () => {
          const held = heldAtGate();
          const isHeld = (j: (typeof inFlight)[number]) =>
            recordsOf(j).some((r) => r.entity === 'invoices' && held.has(r.erpId));
          // Single-record jobs: worker 2 runs them all at once, so every one is held. Batches: worker 2's few
          // slots may go to batches that were waiting at worker 1's kill; one held batch of worker 1's is what
          // the hand-over needs.
          const enough = variant.batch > 1 ? mustHold.some(isHeld) : mustHold.every(isHeld);
          if (inFlightIds.every((id) => stalledEvents.includes(id)) && enough) return true;
          // What a timeout reports: each job's stall and whether worker 2 holds its write.
          throw new Error(
            inFlight
              .map((j) => `${j.id}${stalledEvents.includes(j.id!) ? ' stalled' : ''}${isHeld(j) ? ' held' : ''}`)
              .join('; '),
          );
        },
        60_000,
        50,
      );
      second.kill('SIGKILL');
      await second.exited;
      // What worker 2 held at its kill (still active: no worker runs until worker 3): the jobs of worker 1's
      // kill stall a second time. A single-record job stalled out is its record's failure (STALLED); a
      // batch's is no one record's, and its records go on as jobs of their own.
      const heldAtKill = (await rt.queues.upsert.getJobs(['active'])).filter((j) => inFlightIds.includes(j.id!));
      const singleKeys = heldAtKill
        .filter((j) => j.name === 'upsert')
        .map((j) => `${j.data.entity}:${j.data.erpId}`)
        .sort();
      const stalledKeys = variant.expectStalled ? singleKeys : [];
      const handedOver = heldAtKill
        .filter((j) => j.name === 'upsert-batch')
        .flatMap((j) =>
          recordsOf(j)
            .filter((r) => r.entity === 'invoices')
            .map((r) => r.erpId),
        );
      // Held at both kills (the gate let none finish): every single-record invoice job; at least one invoice batch.
      if (variant.batch === 1) {
        expect(heldAtKill.map((j) => j.id)).toEqual(expect.arrayContaining(mustHold.map((j) => j.id)));
        expect(singleKeys.filter((k) => k.startsWith('invoices:')).length).toBeGreaterThanOrEqual(minHeld);
      } else expect(handedOver.length).toBeGreaterThan(0);

      // Worker 3, with the gate open once worker 2's held writes have left it with their connections.
      await until('worker 2 writes dropped at the gate', async () => gate.held() === 0, 60_000, 50);
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
        'every record in billing or in quarantine, nothing in flight, no failed job left',
        async () => {
          // Read as one moment's state only once each part holds: a failed job is accounted for (quarantined,
          // settled) a moment before it is removed, so "nothing in flight" alone says nothing of the failed set.
          const a = await accounted();
          if (a.lost.length || (await rt.inFlight.count(CONNECTION)) !== 0) return undefined;
          return (await rt.queues.upsert.getJobCounts('failed')).failed === 0 ? a : undefined;
        },
        90_000,
        200,
      );

      expect(settled.lost).toEqual([]);
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
        // The batches held at both kills failed in BullMQ's stalled check; every one of their invoices (none
        // written: the gate held them) went on as a job of its own (`<id>-x<batch hash>`), which wrote it.
        const entries = await rt.ledger.getMany(CONNECTION, 'invoices', handedOver);
        expect(entries.filter((e) => !/-x[0-9a-f]{8}$/.test(e?.jobId ?? '')).map((e) => e?.jobId ?? 'none')).toEqual(
          [],
        );
      }
      const result = await p.compareWithSource();
      expect(result.problems).toEqual([]);
      expect(result.inBilling).toBe(result.expected);
      console.info(
        `[two kill -9] ${inFlight.length} upsert jobs (${inFlightKeys.length} records) in flight at both kills (maxStalledCount ${variant.maxStalledCount}): ` +
          `${stalledOut.length} quarantined as STALLED by the sweep${stalledKeys.length ? ', then in billing after dlq replay' : ''}; ` +
          `${handedOver.length} records of failed batches handed over to jobs of their own; ` +
          `${result.inBilling}/${result.expected} in billing; lost 0`,
      );
    }, 240_000);
  });
}
