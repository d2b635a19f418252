import { randomBytes } from 'node:crypto';
import { collectConnections } from '../operations/list-connections.js';
import { resolveRedis } from '../src/redis.js';
import { arg, machine } from './bench-utils.js';
import {
  change,
  closeBench,
  served,
  startWebhookRig,
  waitFor,
  waitIdle,
  waitSendersActive,
  type WebhookRig,
} from './webhook-rig.js';

/**
 * Vendor calls per day of an idle connection, per vendor: webhooks with their safety-net pull, against
 * polling only, on the sandboxes `erp-sync sandbox` runs (emulators and a worker with every role in this
 * process, real Redis). Nothing changes at the vendor during the measured window.
 *
 * The schedules are shortened by the same rule in both modes: the short interval (`schedule.everySeconds`)
 * is `--every` seconds (5) where the defaults are 300 s (polling) and 21,600 s
 * (`withWebhooksEverySeconds`, the safety net). The calls the sandbox served (its journal; admin routes are
 * not in it) over a `--window` of seconds are scaled to a day: calls × 86,400 / window × every / default
 * interval (300 s polling only, 21,600 s with webhooks), each measured window being that many intervals.
 * Token refreshes are no scheduled pull: they are counted apart, one per access-token lifetime in both
 * modes (Zoho Books and QuickBooks 1 h, Xero 30 min), and added to both. The daily reconcile is the same in
 * both modes and left out.
 *
 *   npm run bench:webhook-quota [-- --window 60 --every 5]
 */
const WINDOW_S = arg('window', 60);
const EVERY_S = arg('every', 5);
const TOKEN_REFRESHES_PER_DAY: Record<string, number> = { 'zoho-books': 24, quickbooks: 24, xero: 48 };
const isToken = (path: string) => /token/.test(path);

/** API calls (token endpoints apart) each sandbox served over the window, once the worker is idle. */
async function measure(rig: WebhookRig): Promise<Map<string, number>> {
  await waitIdle(rig);
  const since = new Map<string, number>();
  for (const erp of rig.erps) since.set(erp.system, (await served(erp)).at(-1)?.seq ?? 0);
  await new Promise((r) => setTimeout(r, WINDOW_S * 1000));
  const out = new Map<string, number>();
  for (const erp of rig.erps)
    out.set(erp.system, (await served(erp, since.get(erp.system))).filter((e) => !isToken(e.path)).length);
  return out;
}

async function main() {
  const redis = await resolveRedis();
  const prefix = `bench-webhook-quota-${randomBytes(3).toString('hex')}`;
  console.log(`idle connection's vendor calls: ${WINDOW_S} s windows, short interval ${EVERY_S} s; ${machine()}`);
  const rig = await startWebhookRig({ redisUrl: redis.url, prefix, records: 6, zohoPerMinute: 100_000 });
  try {
    await rig.startWorker((raw) => {
      delete raw.webhooks;
      for (const c of raw.connections) {
        delete c.webhooks;
        c.schedule = { everySeconds: EVERY_S };
      }
    });
    const polling = await measure(rig);
    await rig.stopWorker();

    await rig.startWorker((raw) => {
      for (const c of raw.connections) c.schedule = { everySeconds: EVERY_S, withWebhooksEverySeconds: EVERY_S };
    });
    await waitSendersActive(rig);
    // Webhooks are healthy once a delivery was accepted: one change per vendor, then the connection is idle.
    for (const erp of rig.erps) await change(erp, { entity: 'invoices', op: 'create', count: 1 });
    await waitFor(
      'every connection on webhooks',
      async () => (await collectConnections(rig.service!.rt)).connections.every((c) => c.webhooks?.mode === 'webhooks'),
      60_000,
      200,
    );
    const hooked = await measure(rig);

    const perDay = (calls: number, defaultInterval: number) => (calls * 86_400 * EVERY_S) / WINDOW_S / defaultInterval;
    console.log(
      '| vendor | polling only: calls in window | polling only: calls/day | webhooks: calls in window | webhooks + safety net: calls/day | ratio | ratio with token refreshes |',
    );
    console.log('|---|---|---|---|---|---|---|');
    let worst = 0;
    for (const erp of rig.erps) {
      const p = perDay(polling.get(erp.system)!, 300);
      const h = perDay(hooked.get(erp.system)!, 21_600);
      const t = TOKEN_REFRESHES_PER_DAY[erp.system]!;
      worst = Math.max(worst, (h + t) / (p + t));
      console.log(
        `| ${erp.system} | ${polling.get(erp.system)} | ${p.toFixed(0)} | ${hooked.get(erp.system)} | ${h.toFixed(1)} | ${(h / p).toFixed(4)} | ${((h + t) / (p + t)).toFixed(3)} (+${t}/day) |`,
      );
    }
    process.exitCode = worst <= 0.1 ? 0 : 1;
  } finally {
    await closeBench(rig, redis, prefix);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
