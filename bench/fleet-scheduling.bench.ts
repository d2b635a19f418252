import { randomBytes } from 'node:crypto';
import type { Job } from 'bullmq';
import { validateSettings } from '../connectors/registry.js';
import { addBackfill } from '../jobs/backfill/backfill-processor.js';
import { createRuntime } from '../app/create-runtime.js';
import type { Runtime } from '../jobs/runtime.js';
import { startWorkers, upsertSchedulers } from '../app/worker-service.js';
import { PROFILES, type RunningSandbox } from '../sandbox/profiles.js';
import { parseConfig } from '../src/config.js';
import { createLogger } from '../src/observability/logger.js';
import { deleteKeysWithPrefix, resolveRedis, stateConnection } from '../src/redis.js';
import { arg, machine } from './bench-utils.js';
import { forkBillingEmulator } from './fork-emulator.js';

/**
 * Thirty connections on one worker, over the three ERP emulators with the vendors' real limits (rolling
 * minutes; Xero 60/min and 5 at a time, QuickBooks 500/min and 10 at a time, Zoho 100/min): one Xero
 * connection throttled hard (its organisation allows 10 calls a minute, as when another app spends the
 * rest), one QuickBooks connection backfilling a large history in small windows, the other 28 on
 * incremental schedules with their ERP changing all the time. Run twice in one process, the same way
 * except for fair scheduling:
 *
 * - fair: a job gives its worker slot back for a quota wait over `sync.quotaWaitInPlaceMs` (1 s), and at
 *   most `sync.maxJobsPerConnection` (2) jobs of one connection run at once;
 * - unfair (the scheduling before it): quota waits in place however long, no per-connection cap.
 *
 * Figures per run: vendor 429s; the backfilling connection's calls per minute against its limit; for
 * every other connection, how late its scheduled incremental pulls started (start − scheduled instant).
 *
 *   npm run bench:fleet [-- --minutes 4 --per-vendor 10 --history 6000 --every 30]
 */
const MINUTES = arg('minutes', 4);
const PER_VENDOR = arg('per-vendor', 10);
const HISTORY = arg('history', 6000);
const EVERY = arg('every', 30);
const WARMUP_S = 60;
const KEY = `fleet-billing-${randomBytes(4).toString('hex')}`;

interface Member {
  id: string;
  system: string;
  sandbox: RunningSandbox;
  role: 'incremental' | 'throttled' | 'backfill';
}

interface RunFigures {
  mode: string;
  vendor429: Record<string, number>;
  backfill: { callsPerMinute: number[]; windowsDone: number; windows: number; budget: number; vendorLimit: number };
  /** Scheduled instant → the pull first taken by a worker (its start), incremental connections. */
  delays: number[];
  /** Scheduled instant → the pull completed, by vendor (a pull that meets its own quota finishes later). */
  done: Record<string, number[]>;
  startsByVendor: Record<string, number[]>;
  delaysThrottled: number[];
  pulls: number;
}

const VENDOR_LIMIT = { 'zoho-books': 100, quickbooks: 500, xero: 60 } as const;

async function startFleet(): Promise<Member[]> {
  const members: Member[] = [];
  for (const profile of PROFILES) {
    for (let i = 1; i <= PER_VENDOR; i++) {
      const backfill = profile.name === 'quickbooks' && i === 1;
      const throttled = profile.name === 'xero' && i === 1;
      const sandbox = await profile.start({
        port: 0,
        host: '127.0.0.1',
        seed: 100 + i,
        records: backfill ? HISTORY : 40,
      });
      if (throttled) {
        const r = await fetch(`${sandbox.url}/__admin/limits`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ratePerMinute: 10 }),
        });
        if (!r.ok) throw new Error(`could not throttle the Xero emulator: ${r.status}`);
      }
      members.push({
        id: `${profile.name.slice(0, 4)}-${String(i).padStart(2, '0')}`,
        system: profile.name,
        sandbox,
        role: backfill ? 'backfill' : throttled ? 'throttled' : 'incremental',
      });
    }
  }
  return members;
}

async function metricValues(rt: Runtime, name: string) {
  const metric = rt.metrics.registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  return (await metric.get()).values as Array<{ labels: Record<string, string | number>; value: number }>;
}

async function runOnce(mode: 'fair' | 'unfair', redisUrl: string, billingUrl: string): Promise<RunFigures> {
  const members = await startFleet();
  const prefix = `bench-fleet-${mode}-${randomBytes(3).toString('hex')}`;
  const connections = members.map((m) => {
    const raw = m.sandbox.demo.connection() as Record<string, unknown>;
    const { rateBudget: _demoBudget, ...rest } = raw;
    return { ...rest, id: m.id, schedule: { everySeconds: EVERY }, lookbackSeconds: 60, settleDelaySeconds: 2 };
  });
  const config = parseConfig(
    {
      billing: { url: billingUrl, apiKey: KEY, baseCurrency: 'INR' },
      redis: { url: redisUrl, prefix },
      sync: {
        backfillWindowDays: 2,
        ...(mode === 'fair' ? {} : { quotaWaitInPlaceMs: 3_600_000, maxJobsPerConnection: 64 }),
      },
      reconcile: { windowDays: 0 },
      connections,
    },
    process.env,
    validateSettings,
    'fleet config',
  );
  const rt = await createRuntime(
    config,
    redisUrl,
    createLogger({ level: process.env.BENCH_LOG_LEVEL ?? 'silent', format: 'json' }),
  );
  const byId = new Map(members.map((m) => [m.id, m]));
  const delays: number[] = [];
  const delaysThrottled: number[] = [];
  const started = Date.now();
  let pulls = 0;
  const workers = startWorkers(rt, ['pull', 'upsert', 'backfill']);
  const pullWorker = workers.workers.find((w) => w.name === 'pull')!;
  let windowsDone = 0;
  const firstActive = new Map<string, number>();
  const done: Record<string, number[]> = {};
  const startsByVendor: Record<string, number[]> = {};
  pullWorker.on('active', (job: Job) => {
    if (job.id && !firstActive.has(job.id)) firstActive.set(job.id, Date.now());
  });
  pullWorker.on('completed', (job: Job) => {
    if (job.id?.startsWith('bf-')) windowsDone++;
    const m = /^repeat:pull-(.+)-(customers|invoices|credit-notes):(\d+)$/.exec(job.id ?? '');
    if (!m || job.processedOn === undefined) return;
    const scheduled = Number(m[3]);
    if (scheduled < started + WARMUP_S * 1000) return;
    const member = byId.get(m[1]!);
    pulls++;
    const delay = ((firstActive.get(job.id!) ?? job.processedOn) - scheduled) / 1000;
    firstActive.delete(job.id!);
    if (member?.role === 'incremental') {
      delays.push(delay);
      (startsByVendor[member.system] ??= []).push(delay);
      (done[member.system] ??= []).push(((job.finishedOn ?? Date.now()) - scheduled) / 1000);
    }
    if (member?.role === 'throttled') delaysThrottled.push(delay);
  });
  await upsertSchedulers(rt);
  const backfiller = members.find((m) => m.role === 'backfill')!;
  const bf = await addBackfill(rt, {
    connectionId: backfiller.id,
    entities: ['invoices', 'credit-notes', 'customers'],
    from: backfiller.sandbox.demo.from,
    to: backfiller.sandbox.demo.to,
  });
  console.log(
    `[${mode}] ${members.length} connections; backfill of ${backfiller.id}: ${bf.children} windows; measuring ${MINUTES} min after a ${WARMUP_S} s warm-up`,
  );

  // The ERPs keep changing: each incremental source mutates every schedule period.
  const mutator = setInterval(() => {
    for (const m of members) if (m.role !== 'backfill') void m.sandbox.demo.mutate().catch(() => {});
  }, EVERY * 1000);
  // The backfilling connection's successful calls, sampled every 5 s.
  const samples: Array<{ t: number; calls: number }> = [];
  const sampleCalls = async () => {
    const values = await metricValues(rt, 'erpsync_vendor_requests_total');
    const calls = values
      .filter((v) => v.labels.connection === backfiller.id && v.labels.status_class === '2xx')
      .reduce((a, v) => a + v.value, 0);
    samples.push({ t: Date.now(), calls });
  };
  const sampler = setInterval(() => void sampleCalls(), 5_000);
  const end = started + (WARMUP_S + MINUTES * 60) * 1000;
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 5_000));
    process.stdout.write(
      `\r[${mode}] ${Math.round((Date.now() - started) / 1000)} s: scheduled pulls measured ${pulls}, backfill windows done ${windowsDone}/${bf.children}   `,
    );
    if (windowsDone === bf.children) break;
  }
  process.stdout.write('\n');
  clearInterval(mutator);
  clearInterval(sampler);
  await sampleCalls();
  const vendor429: Record<string, number> = {};
  for (const v of await metricValues(rt, 'erpsync_rate_limited_total')) {
    const target = String(v.labels.target);
    if (target !== 'billing' && v.value > 0) vendor429[target] = v.value;
  }
  // Calls per rolling minute of the backfilling connection, from the warm-up's end while its windows ran.
  const perMinute: number[] = [];
  for (const s of samples) {
    if (s.t < started + WARMUP_S * 1000) continue;
    const before = samples.find((x) => x.t >= s.t - 60_000);
    if (!before || s.t - before.t < 55_000) continue;
    perMinute.push(((s.calls - before.calls) * 60_000) / (s.t - before.t));
  }
  await workers.stop(5_000);
  await rt.close();
  for (const m of members) await m.sandbox.close();
  const redis = stateConnection(redisUrl);
  await deleteKeysWithPrefix(redis, prefix);
  await redis.quit();
  const budget = rt.connection(backfiller.id).connector.rateBudget.perMinute;
  return {
    mode,
    vendor429,
    backfill: {
      callsPerMinute: perMinute,
      windowsDone,
      windows: bf.children,
      budget,
      vendorLimit: VENDOR_LIMIT.quickbooks,
    },
    delays,
    done,
    startsByVendor,
    delaysThrottled,
    pulls,
  };
}

const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

const redis = await resolveRedis(process.env.REDIS_URL);
const billing = await forkBillingEmulator(KEY);
console.log(machine());
const results: RunFigures[] = [];
try {
  for (const mode of ['fair', 'unfair'] as const) results.push(await runOnce(mode, redis.url, billing.url));
} finally {
  billing.stop();
  await redis.stop();
}
console.log('');
console.log('| | fair scheduling | without it |');
console.log('|---|---|---|');
const row = (name: string, f: (r: RunFigures) => string) => console.log(`| ${name} | ${results.map(f).join(' | ')} |`);
row(
  'vendor 429s (all connections)',
  (r) => `${Object.values(r.vendor429).reduce((a, b) => a + b, 0)} ${JSON.stringify(r.vendor429)}`,
);
row('backfill: calls per rolling minute, mean (min–max)', (r) => {
  const c = r.backfill.callsPerMinute;
  return `${mean(c).toFixed(0)} (${Math.min(...c).toFixed(0)}–${Math.max(...c).toFixed(0)})`;
});
row('backfill: of its budget / of the vendor limit', (r) => {
  const c = mean(r.backfill.callsPerMinute);
  return `${(c / r.backfill.budget).toFixed(2)} of ${r.backfill.budget} / ${(c / r.backfill.vendorLimit).toFixed(2)} of ${r.backfill.vendorLimit}`;
});
row('backfill windows done', (r) => `${r.backfill.windowsDone} / ${r.backfill.windows}`);
row('scheduled pulls measured (28 incremental connections)', (r) => String(r.delays.length));
const triple = (xs: number[] | undefined) =>
  xs?.length ? `${pct(xs, 50).toFixed(1)} / ${pct(xs, 99).toFixed(1)} / ${Math.max(...xs).toFixed(1)}` : 'none';
row('incremental pulls: start delay past schedule p50 / p99 / max (s)', (r) => triple(r.delays));
for (const v of PROFILES.map((p) => p.name)) {
  row(`— ${v}: start delay p50 / p99 / max (s)`, (r) => triple(r.startsByVendor[v]));
  row(`— ${v}: completed after schedule p50 / p99 / max (s)`, (r) => triple(r.done[v]));
}
row('throttled connection: start delay p50 / max (s)', (r) =>
  r.delaysThrottled.length
    ? `${pct(r.delaysThrottled, 50).toFixed(1)} / ${Math.max(...r.delaysThrottled).toFixed(1)}`
    : 'none completed',
);
process.exit(0);
