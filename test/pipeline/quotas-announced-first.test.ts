import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoicesStream } from '../../connectors/zoho-books/streams/invoices.js';
import { stateKeys } from '../../src/pipeline/keys.js';
import { currentQuotaWaitPolicy, withQuotaWaitPolicy } from '../../src/pipeline/quota-wait-policy.js';
import { Quotas } from '../../src/pipeline/quotas.js';
import { HISTORY_FLOOR_SHARE, type QuotaLane } from '../../src/waits/vendor-waits.js';
import { type ZohoClients, readAll, startZohoClients } from '../connectors/zoho-books/harness.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';
import { virtualClock } from '../support/virtual-clock.js';

/**
 * A fresh change does not wait behind history: the Zoho Books client against the emulator over loopback,
 * its calls under the connection's quota in real Redis, on a virtual clock (a quota minute passes in
 * milliseconds, no sleeps).
 */
describe('Quotas: announced reads before history', () => {
  const prefix = testPrefix('quota-lanes');
  const keys = stateKeys(prefix);
  const CONNECTION = 'zoho-lanes';
  // Zoho Books' default budget: 90 calls a minute (the vendor's 100), 5 in flight.
  const limits = { perMinute: 90, concurrency: 5 };
  let redis: Redis;
  let h: ZohoClients;
  beforeAll(async () => {
    redis = connect();
    h = await startZohoClients({ records: 200, customers: 12, creditNotes: 2 });
  });
  afterAll(async () => {
    await h.close();
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  const policy = (lane: QuotaLane) => ({ maxInPlaceWaitMs: 1_000, deferrable: () => false, lane: () => lane });

  it('given a first sync of 200 invoices holding the quota for over a minute, when a webhook announces an edit 70 s in, then its read is served within a second (not after history), and history keeps reading every minute', async () => {
    const clock = virtualClock(Date.parse('2026-12-07T10:00:00Z'));
    const quotas = new Quotas(redis, keys, clock.now, clock.wait);
    const calls: Array<{ lane: QuotaLane; at: number }> = [];
    const client = h.client(
      {
        acquire: async (signal) => {
          const release = await quotas.acquire(CONNECTION, limits, { signal });
          calls.push({ lane: currentQuotaWaitPolicy()?.lane?.() ?? 'current', at: clock.now() });
          return release;
        },
      },
      { detailConcurrency: 1 },
    );
    const ctx = h.context(client, {}, { detailConcurrency: 1 });
    const edited = h.emulator.store.invoices()[150]!.invoice_id;

    const history = clock.actor(() =>
      withQuotaWaitPolicy(policy('history'), () => readAll(invoicesStream, ctx, invoicesStream.initialState())),
    );
    const announced = clock.actor(async () => {
      await clock.wait(70_000);
      const arrived = clock.now();
      const read = await withQuotaWaitPolicy(policy('announced'), async () => {
        const ids: string[] = [];
        for await (const page of invoicesStream.readByIds!(ctx, [edited])) ids.push(...page.map((r) => r.id));
        return ids;
      });
      return { arrived, read };
    });
    const [{ records }, { arrived, read }] = await Promise.all([history, announced]);

    expect(read).toEqual([edited]);
    expect(records).toHaveLength(200);
    // The quota held by history for the whole minute before (every slot of it taken).
    const before = calls.filter((c) => c.at > arrived - 60_000 && c.at <= arrived);
    expect(before.length).toBe(limits.perMinute);
    const served = calls.find((c) => c.lane === 'announced')!.at;
    expect(served - arrived).toBeLessThanOrEqual(1_000);
    // History yields, but keeps at least its floor of every minute while announced reads wait.
    const historyAfter = calls.filter((c) => c.lane === 'history' && c.at > arrived && c.at <= arrived + 60_000);
    expect(historyAfter.length).toBeGreaterThanOrEqual(Math.floor(limits.perMinute * HISTORY_FLOOR_SHARE));
    // Never over the vendor's budget in any rolling minute.
    for (const c of calls)
      expect(calls.filter((d) => d.at > c.at - 60_000 && d.at <= c.at).length).toBeLessThanOrEqual(90);
  });
});
