import { randomBytes } from 'node:crypto';
import { resolveRedis } from '../src/redis.js';
import { arg, machine } from './bench-utils.js';
import {
  admin,
  change,
  closeBench,
  served,
  startWebhookRig,
  waitFor,
  waitIdle,
  waitSendersActive,
} from './webhook-rig.js';

/**
 * The safety net at fleet size: `--connections` (30) Zoho Books connections, each on its own sandbox (seeds
 * 1…n, its limit `--per-minute` calls a minute (Zoho's real 100; the start-up catch-up reads each
 * organisation's generated history, 80 customers and 60 credit notes, one by one), the connection's budget
 * 10 below it) and its own billing company, one
 * worker with every role in this process, real Redis. Each sandbox drops `--drop` (5 %) of its deliveries
 * and sends `--duplicate` (5 %) twice (seeded). `--changes` (20) invoices are created per connection, one
 * delivery each. The safety-net pull runs every `--net` seconds (30; the default is 6 h), the short
 * schedule every 10 s. Zoho Books only: its deliveries name the connection in their address, so thirty
 * sandboxes route apart (QuickBooks and Xero sandboxes share their realm and tenant ids).
 *
 * Checked, or exit 1: every created invoice reaches billing; the sandboxes' dropped deliveries are found
 * by the safety net (erpsync_webhook_missed_total ≥ dropped); no vendor call answered 429; billing got each
 * body once (none written twice, duplicates and safety-net finds included; a new version of an invoice, changed
 * at the vendor between two writes, is a write of its own).
 *
 *   npm run bench:safety-net [-- --connections 30 --changes 20 --drop 0.05 --duplicate 0.05 --net 30 --per-minute 100 --catch-up-s 900]
 */
const CONNECTIONS = arg('connections', 30);
const CHANGES = arg('changes', 20);
const DROP = arg('drop', 0.05);
const DUPLICATE = arg('duplicate', 0.05);
const NET_S = arg('net', 30);
/** The emulators' per-minute limit and, 10 below it, the connections' budget. */
const PER_MINUTE = arg('per-minute', 100);
/** How long the start-up catch-up may take before the run stops (its cost printed). */
const CATCH_UP_S = arg('catch-up-s', 900);
const idOf = (i: number) => `zoho-${i + 1}`;
const companyOf = (i: number) => `co-${i + 1}`;

async function missedTotal(httpUrl: string): Promise<number> {
  const text = await (await fetch(`${httpUrl}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('erpsync_webhook_missed_total{'))
    .reduce((a, l) => a + Number(l.split(' ').at(-1)), 0);
}

/** erpsync_jobs_deferred_total{reason="quota"}, every queue. */
async function deferredForQuota(httpUrl: string): Promise<number> {
  const text = await (await fetch(`${httpUrl}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('erpsync_jobs_deferred_total{') && l.includes('reason="quota"'))
    .reduce((a, l) => a + Number(l.split(' ').at(-1)), 0);
}

async function main() {
  const redis = await resolveRedis();
  const prefix = `bench-safety-net-${randomBytes(3).toString('hex')}`;
  console.log(
    `safety net: ${CONNECTIONS} connections, ${CHANGES} changes each, ${DROP * 100} % dropped, ${DUPLICATE * 100} % duplicated; ${machine()}`,
  );
  const billingKeys = Array.from({ length: CONNECTIONS }, (_, i) => ({
    key: `bench-key-${i + 1}`,
    companyId: companyOf(i),
  }));
  const rig = await startWebhookRig({
    redisUrl: redis.url,
    prefix,
    records: 2,
    systems: Array<string>(CONNECTIONS).fill('zoho-books'),
    billingKeys,
    zohoPerMinute: PER_MINUTE,
  });
  try {
    for (const [i, erp] of rig.erps.entries()) await admin(erp, '/__admin/webhooks', { connection: idOf(i) });
    const t0 = performance.now();
    const service = await rig.startWorker((raw) => {
      for (const [i, c] of (raw.connections as Array<Record<string, any>>).entries()) {
        c.id = idOf(i);
        c.billing = { apiKey: billingKeys[i]!.key, company: companyOf(i), baseCurrency: 'INR' };
        c.schedule = { everySeconds: 10, withWebhooksEverySeconds: NET_S };
        c.rateBudget = { ...c.rateBudget, perMinute: PER_MINUTE - 10 };
      }
    });
    await waitSendersActive(rig);
    // Caught up: every stream of every connection pulled once (the generated history written).
    const caughtUp = await waitFor(
      'every stream pulled once',
      async () => {
        for (const c of service.rt.config.connections) {
          const { lastSuccess } = await service.rt.syncStatus.read(c.id);
          if (c.entities.some((e) => lastSuccess[e] === undefined)) return false;
        }
        return true;
      },
      CATCH_UP_S * 1000,
      1000,
    ).then(
      () => true,
      (e: Error) => (console.error(e.message), false),
    );
    if (caughtUp) await waitIdle(rig, 600_000);
    console.log(
      `started and ${caughtUp ? 'caught up' : 'NOT caught up'} in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );
    // The catch-up's cost: vendor calls against the records read (a detail GET each, counted once).
    let catchUpCalls = 0;
    let catchUpRecords = 0;
    let catchUp429 = 0;
    for (const erp of rig.erps) {
      const entries = await served(erp);
      catchUpCalls += entries.length;
      catchUp429 += entries.filter((e) => e.status === 429).length;
      catchUpRecords += new Set(
        entries.filter((e) => /\/(invoices|creditnotes|contacts)\/[^/?]+(\?|$)/.test(e.path)).map((e) => e.path),
      ).size;
    }
    console.log(
      `catch-up: ${catchUpCalls} vendor calls for ${catchUpRecords} records (${(catchUpCalls / catchUpRecords).toFixed(2)} a record), ${catchUp429} × 429, ${await deferredForQuota(service.httpUrl)} pulls put back for quota`,
    );
    if (!caughtUp) {
      process.exitCode = 1;
      return;
    }
    const since = await Promise.all(rig.erps.map(async (e) => (await served(e)).at(-1)?.seq ?? 0));
    const billingSince = rig.billing.journal.list().at(-1)?.seq ?? 0;
    const missedBefore = await missedTotal(service.httpUrl);
    for (const [i, erp] of rig.erps.entries())
      await admin(erp, '/__admin/webhooks', { dropRate: DROP, duplicateRate: DUPLICATE, seed: i + 1 });

    const created = new Map<number, string[]>();
    const t1 = performance.now();
    for (let n = 0; n < CHANGES; n++)
      for (const [i, erp] of rig.erps.entries()) {
        const [c] = await change(erp, { entity: 'invoices', op: 'create', count: 1 });
        created.set(i, [...(created.get(i) ?? []), c!.id]);
      }
    const inBilling = () =>
      [...created].reduce(
        (a, [i, ids]) =>
          a +
          ids.filter((id) => rig.billing.store.company(companyOf(i)).invoices.some((inv) => inv.input.erpId === id))
            .length,
        0,
      );
    await waitFor(
      `${CONNECTIONS * CHANGES} invoices in billing`,
      () => inBilling() === CONNECTIONS * CHANGES,
      900_000,
      500,
    ).catch((e: Error) => console.error(e.message));
    const allInS = (performance.now() - t1) / 1000;
    await waitIdle(rig);

    let dropped = 0;
    let duplicated = 0;
    for (const erp of rig.erps) {
      const v = (await (await fetch(`${erp.url}/__admin/webhooks`)).json()) as {
        stats: { dropped: number; duplicated: number };
      };
      dropped += v.stats.dropped;
      duplicated += v.stats.duplicated;
    }
    const missed = (await missedTotal(service.httpUrl)) - missedBefore;
    let throttled = 0;
    let calls = 0;
    for (const [i, erp] of rig.erps.entries()) {
      const entries = await served(erp, since[i]);
      calls += entries.length;
      throttled += entries.filter((e) => e.status === 429).length;
    }
    // A write twice: the same invoice (company, ERP id) upserted again with the same body. A new version
    // (the invoice changed at the vendor between two writes) is a write of its own.
    const upserts = new Map<string, string[]>();
    for (const e of rig.billing.journal.list({ since: billingSince }))
      if (e.method === 'POST' && e.path === '/external/invoice/upsert' && e.body && e.status < 300) {
        const key = `${e.key}|${(JSON.parse(e.body) as { invoice: { erpId: string } }).invoice.erpId}`;
        upserts.set(key, [...(upserts.get(key) ?? []), e.body]);
      }
    const twice = [...upserts.values()].filter((bodies) => new Set(bodies).size < bodies.length).length;
    const versions = [...upserts.values()].filter((bodies) => new Set(bodies).size > 1).length;
    for (const [key, bodies] of upserts)
      if (bodies.length > 1) {
        const [a, b] = bodies.map((x) => (JSON.parse(x) as { invoice: Record<string, unknown> }).invoice);
        const differ = Object.keys(a!).filter((k) => JSON.stringify(a![k]) !== JSON.stringify(b![k]));
        console.log(
          `upserted ${bodies.length}×: ${key.split('|')[1]} (fields that differ: ${differ.join(', ') || 'none'})`,
        );
        break;
      }
    const total = CONNECTIONS * CHANGES;
    console.log(
      '| changes | in billing | deliveries dropped | duplicated | missed (counted) | vendor calls | 429s | written twice (same body) | written again (new version) | all in billing after |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    console.log(
      `| ${total} | ${inBilling()} | ${dropped} | ${duplicated} | ${missed} | ${calls} | ${throttled} | ${twice} | ${versions} | ${allInS.toFixed(0)} s |`,
    );
    const ok = inBilling() === total && missed >= dropped && throttled === 0 && twice === 0;
    process.exitCode = ok ? 0 : 1;
  } finally {
    await closeBench(rig, redis, prefix);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
