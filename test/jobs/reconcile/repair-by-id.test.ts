import { describe, expect, it } from 'vitest';
import { repairById } from '../../../jobs/reconcile/repair-by-id.js';
import { clearLookupsCache } from '../../../src/connector/lookups-cache.js';
import { startHarness } from '../../support/harness.js';
import { testScale } from '../../support/scale.js';
import { VENDORS, type VendorSystem } from '../../support/vendors/registry.js';

/**
 * A repair of 10 drifted invoices in a 2,000-invoice history, against each vendor's emulator: the
 * vendor calls are counted on the emulator's own request journal (what the vendor received). The figures
 * are printed (docs/benchmarks.md, "Repair by id") and bounded: at most 1.2 calls per drifted record, in a
 * worker (its lookups cached) and in a fresh process beside it (a one-shot `reconcile --repair`: the
 * lookups a worker read are shared through Redis), whatever the history's length
 * (ERPSYNC_SCALE_REPAIR_HISTORY=10000 runs it at the benchmark's size).
 */
const HISTORY = testScale('REPAIR_HISTORY', 2_000);
const DRIFTED = 10;
const BOUND = Math.floor(DRIFTED * 1.2);

interface JournalEntry {
  seq: number;
  method: string;
  path: string;
}

async function journal(url: string): Promise<JournalEntry[]> {
  const body = (await (await fetch(`${url}/__admin/journal`)).json()) as JournalEntry[] | { entries: JournalEntry[] };
  return Array.isArray(body) ? body : body.entries;
}

describe.each(Object.keys(VENDORS) as VendorSystem[])('repair by id against the %s emulator', (system) => {
  it(`given a ${HISTORY.toLocaleString('en-GB')}-invoice history, a settle delay of 5 minutes and ${DRIFTED} drifted invoices (one of them changed a moment ago, one gone from the source), when they are repaired, then the vendor gets at most ${BOUND} calls (1.2 a record) in a worker and in a fresh process beside it, each live record is enqueued at its current version under a repair job id, and the gone one is reported`, async () => {
    // Lookups cached as a worker caches them (the harness reads them afresh by default).
    const h = await startHarness({
      name: `repair-by-id-${system}`,
      connections: [{ system, seed: 11, invoices: HISTORY, settings: { lookupsCacheSeconds: 3600 } }],
      settleDelaySeconds: 300,
    });
    try {
      const rt = h.rt;
      const conn = h.connections[0]!.id;
      const emu = h.emulatorOf(conn, system);
      const handle = rt.connection(conn);
      const stream = handle.connector.streams.invoices;
      const ctx = handle.readContext({ logger: rt.logger, until: new Date() });
      // The drifted records: invoices of the first page of the history, issued ones (drafts are skipped).
      const ids: string[] = [];
      for await (const page of stream.read(ctx, stream.initialState(undefined))) {
        ids.push(...page.records.filter((r) => !r.deleted && !r.draft && !r.notForBilling).map((r) => r.id));
        if (ids.length >= DRIFTED + 1) break;
      }
      const drifted = ids.slice(0, DRIFTED - 1);
      const gone = system === 'xero' ? '0badc0de-0000-4000-8000-000000000000' : '987654321098';
      drifted.push(gone);
      let changed: { id: string; at: number } | undefined;
      if (system === 'zoho-books') {
        // Changed at the vendor a moment ago: inside the settle delay, which a pull would leave for later.
        const res = await fetch(`${emu.url}/__admin/mutate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify([{ op: 'edit_invoice', invoice_id: drifted[0] }]),
        });
        expect(res.ok).toBe(true);
        changed = { id: drifted[0]!, at: Date.now() };
      }

      // Warm: in a worker, the connection's lookups are cached (lookupsCacheSeconds); fresh and cold below.
      const measure = async () => {
        const before = Math.max(0, ...(await journal(emu.url)).map((e) => e.seq));
        const result = (await repairById(rt, conn, 'invoices', drifted))!;
        const calls = (await journal(emu.url)).filter((e) => e.seq > before);
        return { result, calls };
      };
      await stream.lookups?.(ctx);
      const warm = await measure();
      // A fresh process beside the worker: its own cache empty, the lookups the worker read in Redis.
      clearLookupsCache();
      const fresh = await measure();
      // Nothing read anywhere yet (a deployment's very first repair): the lookups are read from the vendor.
      clearLookupsCache();
      for (const key of await rt.redis.keys(`${h.prefix}:lookups:*`)) await rt.redis.del(key);
      const cold = await measure();
      console.info(
        `[repair-by-id] ${system}: ${DRIFTED} drifted of ${HISTORY} invoices → ${warm.calls.length} vendor calls with lookups cached (${[...new Set(warm.calls.map((c) => `${c.method} ${c.path.replace(/\/[0-9a-f-]{6,}$/i, '/{id}')}`))].join(', ')}); ${fresh.calls.length} in a fresh process beside a worker; ${cold.calls.length} with no lookups read anywhere yet`,
      );

      expect(warm.calls.length).toBeLessThanOrEqual(BOUND);
      expect(fresh.calls.length).toBeLessThanOrEqual(BOUND);
      expect(warm.result.vendorCalls).toBe(warm.calls.filter((c) => !/token/i.test(c.path)).length);
      const byId = new Map(warm.result.records.map((r) => [r.erpId, r]));
      expect(byId.get(gone)).toMatchObject({ action: 'source-gone' });
      expect((await rt.ledger.get(conn, 'invoices', gone)) ?? 'no entry').toBe('no entry');
      const live = drifted.filter((id) => id !== gone);
      for (const id of live) {
        const outcome = byId.get(id);
        expect(outcome?.action, `${id}: ${outcome?.detail ?? ''}`).toBe('re-enqueued');
        expect(outcome!.jobId).toMatch(/-r[0-9a-z]+$/);
        const job = await rt.queues.upsert.getJob(outcome!.jobId!);
        expect(job?.data).toMatchObject({
          connectionId: conn,
          entity: 'invoices',
          erpId: id,
          version: outcome!.version,
        });
      }
      // Tracked in flight, as every upsert the pipeline hands over.
      const flying = await rt.inFlight.versions(conn, 'invoices', live);
      expect(flying).toEqual(live.map((id) => byId.get(id)!.version));
      if (changed) expect(Date.parse(byId.get(changed.id)!.version!)).toBeGreaterThan(changed.at - 2_000);
      // A second repair of the same content is its own job: the first one's id does not swallow it.
      expect(cold.result.records.find((r) => r.erpId === live[1]!)!.jobId).not.toBe(byId.get(live[1]!)!.jobId);
    } finally {
      await h.close();
    }
  }, 180_000);
});
