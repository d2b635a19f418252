import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBackfillSummary } from '../../jobs/backfill/backfill-processor.js';
import type { BackfillSummary } from '../../jobs/backfill/types.js';
import { CONNECTION, type Harness, startHarness } from '../support/harness.js';

/**
 * P9 (docs/reliability.md): running the full sync again changes nothing. A second backfill of the
 * same history (a new run: `restart: true`, so every window is read again from the source) finds every
 * record unchanged against the ledger and enqueues nothing: billing receives no write at all, and the
 * ledger and billing's stored invoices stay byte for byte the same.
 */
const INVOICES = 100;

describe('given a completed backfill of 100 invoices and their customers', () => {
  let p: Harness;
  let first: BackfillSummary;
  beforeAll(async () => {
    p = await startHarness({ name: 'replay', invoices: INVOICES });
    p.startWorkers(['pull', 'upsert', 'backfill']);
    const { runId } = await p.backfill();
    await p.waitForBackfill(runId, 60_000);
    first = await readBackfillSummary(p.rt, runId);
  });
  afterAll(() => p?.close());

  it('when the whole backfill runs again as a new run, then billing receives no write and the ledger and billing are unchanged', async () => {
    const { rt } = p;
    const ledgerKeys = ['invoices', 'customers'].map((e) => rt.keys.ledger(CONNECTION, e));
    const snapshot = async () => ({
      ledger: await Promise.all(ledgerKeys.map((k) => rt.redis.hgetall(k))),
      billing: [...p.billingInvoices().values()].map((i) => ({
        id: i.id,
        input: JSON.stringify(i.input),
        updatedAtMs: i.updatedAtMs,
        lifecycle: i.lifecycleStatus,
      })),
    });
    const before = await snapshot();
    const seq = p.journal().at(-1)?.seq ?? 0;
    const zohoBefore = p.zoho.journal.list().length;
    expect(before.billing).toHaveLength(first.enqueued - (await rt.ledger.count(CONNECTION, 'customers')));

    const again = await p.backfill({ restart: true });
    expect(again.alreadyDone).toBe(false);
    await p.waitForBackfill(again.runId, 60_000);
    const second = await readBackfillSummary(rt, again.runId);

    // The source was read again in full …
    expect(p.zoho.journal.list().length).toBeGreaterThan(zohoBefore);
    expect(second.pulled).toBe(first.pulled);
    // … and nothing was enqueued or sent.
    expect(second).toMatchObject({
      enqueued: 0,
      unchanged: first.pulled - first.quarantined,
      quarantined: first.quarantined,
    });
    const writes = p.billing.journal.list({ since: seq }).filter((e) => e.method === 'POST');
    expect(writes).toEqual([]);
    expect(p.billing.journal.list({ since: seq })).toEqual([]);
    expect(await snapshot()).toEqual(before);

    // Asking for the same (not restarted) run again is a no-op too: it is already complete.
    const resumed = await p.backfill();
    expect(resumed.alreadyDone).toBe(true);

    console.info(
      `[replay] first run: pulled ${first.pulled}, enqueued ${first.enqueued}; second run: pulled ${second.pulled}, unchanged ${second.unchanged}, ` +
        `enqueued ${second.enqueued}; billing requests during the replay: 0; ledger (${Object.keys(before.ledger[0]!).length} invoices) and billing unchanged`,
    );
  }, 90_000);
});
