import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { validateSettings } from '../connectors/registry.js';
import type { PullResult } from '../jobs/pull/types.js';
import { createRuntime } from '../app/create-runtime.js';
import { startWorkers } from '../app/worker-service.js';
import { waitForDrain } from '../cli/drain.js';
import { PROFILES, type SandboxProfile } from '../sandbox/profiles.js';
import { clearLookupsCache } from '../src/connector/lookups-cache.js';
import { ENTITY_NAMES, type EntityName } from '../src/connector/entities.js';
import { parseConfig } from '../src/config.js';
import type { VendorRequest } from '../src/http/vendor-client.js';
import { createLogger } from '../src/observability/logger.js';
import { deleteKeysWithPrefix, resolveRedis, stateConnection } from '../src/redis.js';
import { arg, machine } from './bench-utils.js';
import { forkBillingEmulator } from './fork-emulator.js';

/**
 * Vendor HTTP calls per 1,000 records, per vendor, through the real pipeline (pull and upsert workers
 * in-process, real Redis, the billing emulator in its own process, each ERP emulator with its limits off):
 *
 * (a) first sync: empty state, one incremental pull of every entity (customers, invoices, credit notes)
 *     from no checkpoint, then the queues drained;
 * (b) no-op re-sync right after: the same three pulls again, nothing changed at the vendor.
 *
 * Next to each, the least the vendor's API allows for the same read, counting list pages only:
 * Σ max(1, ⌈records / max page size⌉) per entity for (a), one list call per entity for (b).
 *
 * Calls are counted three ways: the emulator's request journal (what the vendor received, token refreshes
 * included: the total); the connection's VendorClient, wrapped here, by endpoint (the breakdown, with
 * queries by id and re-reads of a page already read told apart); and the runtime's
 * erpsync_vendor_requests_total (attempts, as a cross-check).
 *
 *   npm run bench:calls [-- --records 1000 --seed 7]
 */
const RECORDS = arg('records', 1000);
const SEED = arg('seed', 7);
const KEY = 'bench-key';

/** The vendor's largest list page, with where the vendor documents it (as the connector READMEs cite it). */
const MAX_PAGE: Record<string, { size: number; doc: string; note?: string }> = {
  'zoho-books': { size: 200, doc: 'https://zoho.com/books/api/v3/pagination' },
  quickbooks: {
    size: 1000,
    doc: 'https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/data-queries',
  },
  xero: {
    size: 100,
    doc: 'https://developer.xero.com/faq/limits/retrieving-data',
    note: 'pages of 100 with line items as documented; the API also takes pageSize up to 1,000 (connectors/xero/README.md, Limitations)',
  },
};

interface Tally {
  /** Logical calls through the connection's VendorClient, by endpoint (refined). */
  byEndpoint: Map<string, number>;
  seenPages: Set<string>;
}

/** Counts every logical call of the connection's client, labelled by what it is for. */
function instrument(
  client: { request<T extends z.ZodTypeAny>(req: VendorRequest<T>): Promise<z.infer<T>> },
  tally: () => Tally,
): void {
  const original = client.request.bind(client);
  client.request = <T extends z.ZodTypeAny>(req: VendorRequest<T>): Promise<z.infer<T>> => {
    const t = tally();
    let label = req.endpoint;
    const statement = typeof req.query?.query === 'string' ? req.query.query : undefined;
    if (statement && /\bId IN \(/.test(statement)) label += ' (by Id IN …)';
    else if (req.query?.page !== undefined) {
      // The same page of the same query (same filters and headers) asked for again: a re-read.
      const key = `${req.endpoint}|${JSON.stringify(req.query)}|${JSON.stringify(req.headers ?? {})}`;
      if (t.seenPages.has(key)) label += ' (page read again)';
      t.seenPages.add(key);
    }
    t.byEndpoint.set(label, (t.byEndpoint.get(label) ?? 0) + 1);
    return original(req);
  };
}

interface JournalEntry {
  seq: number;
  method: string;
  path: string;
  status: number;
}

async function journal(url: string): Promise<JournalEntry[]> {
  const body = (await (await fetch(`${url}/__admin/journal`)).json()) as JournalEntry[] | { entries: JournalEntry[] };
  return Array.isArray(body) ? body : body.entries;
}

const isTokenCall = (e: JournalEntry) => e.method === 'POST' && /token/i.test(e.path);

interface Phase {
  pulls: Record<EntityName, PullResult>;
  /** Quarantine by reason once drained (mapping and upsert stages). */
  quarantine: Record<string, number>;
  /** Vendor-side requests (journal), all and token endpoint only. */
  journalTotal: number;
  journalToken: number;
  journalNon2xx: number;
  byEndpoint: Map<string, number>;
  /** erpsync_vendor_requests_total summed over the phase. */
  metricsTotal: number;
  seconds: number;
}

interface VendorRun {
  system: string;
  connectionId: string;
  first: Phase;
  noop: Phase;
}

async function runVendor(
  profile: SandboxProfile,
  billingUrl: string,
  redisUrl: string,
  prefixes: string[],
): Promise<VendorRun> {
  clearLookupsCache(); // a first sync in a fresh worker process: nothing cached
  const emu = await profile.start({ port: 0, host: '127.0.0.1', seed: SEED, records: RECORDS, demo: true });
  const prefix = `bench-calls-${randomBytes(3).toString('hex')}`;
  prefixes.push(prefix);
  const connection = emu.demo.connection();
  const config = parseConfig(
    {
      billing: { url: billingUrl, apiKey: KEY, rateLimit: { max: 5000, durationMs: 1000 } },
      redis: { url: redisUrl, prefix },
      // A credit note applied to an invoice deleted in the source before the first sync (never in the ledger)
      // waits dependencyWaitSeconds (30 min by default) before its quarantine. Upserts make no vendor calls,
      // so a shorter wait changes no figure here, only how long the drain takes; 2 minutes still leaves the
      // invoices of a large first sync time to reach billing ahead of their credit notes.
      sync: { upsertConcurrency: 32, backlogHighWater: 1_000_000, dependencyWaitSeconds: 120 },
      connections: [connection],
    },
    {},
    validateSettings,
    'bench config',
  );
  const rt = await createRuntime(
    config,
    redisUrl,
    createLogger({ level: process.env.LOG_LEVEL ?? 'error', format: 'json' }),
  );
  const id = emu.demo.connectionId;
  let tally: Tally = { byEndpoint: new Map(), seenPages: new Set() };
  instrument(rt.vendorClient(id), () => tally);
  const workers = startWorkers(rt, ['pull', 'upsert']);
  const metricsTotal = async () => {
    const m = await rt.metrics.vendorRequests.get();
    return m.values.filter((v) => v.labels.connection === id).reduce((a, v) => a + v.value, 0);
  };
  let seq = 0;
  const phase = async (): Promise<Phase> => {
    tally = { byEndpoint: new Map(), seenPages: new Set() };
    const metricsBefore = await metricsTotal();
    const started = performance.now();
    const jobs = await Promise.all(
      ENTITY_NAMES.map((entity) => rt.queues.pull.add('pull', { connectionId: id, entity }, { priority: 1 })),
    );
    await waitForDrain(rt, undefined, 30 * 60_000);
    const seconds = (performance.now() - started) / 1000;
    const pulls = {} as Record<EntityName, PullResult>;
    for (const [i, entity] of ENTITY_NAMES.entries()) {
      const job = await rt.queues.pull.getJob(jobs[i]!.id!);
      const state = await job?.getState();
      if (state !== 'completed')
        throw new Error(`${id} ${entity}: pull job ${state ?? 'gone'}: ${job?.failedReason ?? ''}`);
      pulls[entity] = job!.returnvalue as PullResult;
    }
    const entries = (await journal(emu.url)).filter((e) => e.seq > seq);
    seq = entries.reduce((a, e) => Math.max(a, e.seq), seq);
    return {
      pulls,
      quarantine: await rt.quarantine.countByReason(id),
      journalTotal: entries.length,
      journalToken: entries.filter(isTokenCall).length,
      journalNon2xx: entries.filter((e) => e.status < 200 || e.status >= 300).length,
      byEndpoint: tally.byEndpoint,
      metricsTotal: (await metricsTotal()) - metricsBefore,
      seconds,
    };
  };
  try {
    const first = await phase();
    const noop = await phase();
    return { system: profile.name, connectionId: id, first, noop };
  } finally {
    await workers.stop(5_000);
    await rt.close();
    await emu.close();
  }
}

/** Records a list read returns for the entity (QuickBooks' CDC delete stubs come from another endpoint). */
const listed = (r: PullResult, system: string) => r.pulled - (system === 'quickbooks' ? r.deleted : 0);

function minimumFirst(run: VendorRun): number {
  const size = MAX_PAGE[run.system]!.size;
  return ENTITY_NAMES.reduce((a, e) => a + Math.max(1, Math.ceil(listed(run.first.pulls[e], run.system) / size)), 0);
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-GB', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function report(runs: VendorRun[]): string[] {
  const lines: string[] = [];
  lines.push(`machine: ${machine()}`);
  lines.push(
    `method: each profile's emulator (seed ${SEED}, --records ${RECORDS}, demo: limits off) and its demo connection; pull + upsert workers in-process on a fresh Redis prefix; billing emulator in its own process; (a) one incremental pull per entity from no checkpoint, queues drained; (b) the same again at once. Calls = requests in the emulator's journal (token refreshes included).\n`,
  );
  lines.push('| vendor | max page (doc) | customers / invoices / credit notes read | records |');
  lines.push('|---|---|---|---|');
  for (const r of runs) {
    const p = r.first.pulls;
    const m = MAX_PAGE[r.system]!;
    const n = ENTITY_NAMES.reduce((a, e) => a + listed(p[e], r.system), 0);
    lines.push(
      `| ${r.system} | ${m.size} (${m.doc}) | ${listed(p.customers, r.system)} / ${listed(p.invoices, r.system)} / ${listed(p['credit-notes'], r.system)} | ${fmt(n)} |`,
    );
  }
  for (const [title, which] of [
    ['(a) first sync', 'first'],
    ['(b) no-op re-sync', 'noop'],
  ] as const) {
    lines.push(`\n### ${title}\n`);
    lines.push(
      '| vendor | records | calls | calls per 1,000 records | minimum | calls / minimum | time (pulls + drain) |',
    );
    lines.push('|---|---|---|---|---|---|---|');
    for (const r of runs) {
      const n = ENTITY_NAMES.reduce((a, e) => a + listed(r.first.pulls[e], r.system), 0);
      const ph = r[which];
      const min = which === 'first' ? minimumFirst(r) : ENTITY_NAMES.length;
      lines.push(
        `| ${r.system} | ${fmt(n)} | ${fmt(ph.journalTotal)} | ${fmt((ph.journalTotal / n) * 1000, 1)} | ${min} | ${fmt(ph.journalTotal / min, 1)} | ${fmt(ph.seconds, 1)} s |`,
      );
    }
  }
  lines.push('\n### calls by endpoint\n');
  for (const r of runs) {
    lines.push(`${r.system} (${r.connectionId}):\n`);
    lines.push('| endpoint | first sync | no-op re-sync |');
    lines.push('|---|---|---|');
    const labels = [...new Set([...r.first.byEndpoint.keys(), ...r.noop.byEndpoint.keys()])].sort(
      (a, b) => (r.first.byEndpoint.get(b) ?? 0) - (r.first.byEndpoint.get(a) ?? 0) || a.localeCompare(b),
    );
    for (const l of labels)
      lines.push(`| ${l} | ${r.first.byEndpoint.get(l) ?? 0} | ${r.noop.byEndpoint.get(l) ?? 0} |`);
    lines.push(`| token refresh (journal) | ${r.first.journalToken} | ${r.noop.journalToken} |`);
    const sum = (ph: Phase) => [...ph.byEndpoint.values()].reduce((a, v) => a + v, 0) + ph.journalToken;
    lines.push(`| **total (journal)** | **${r.first.journalTotal}** | **${r.noop.journalTotal}** |`);
    lines.push(
      `| erpsync_vendor_requests_total (the runtime's count) | ${r.first.metricsTotal} | ${r.noop.metricsTotal} |`,
    );
    for (const [name, ph] of [
      ['first sync', r.first],
      ['no-op', r.noop],
    ] as const) {
      if (sum(ph) !== ph.journalTotal || ph.metricsTotal + ph.journalToken < ph.journalTotal || ph.journalNon2xx > 0)
        lines.push(
          `\n${name}: client calls + token ${sum(ph)}, metrics ${ph.metricsTotal}, journal ${ph.journalTotal}, non-2xx ${ph.journalNon2xx} (retries or uncounted calls)`,
        );
    }
    const q =
      Object.entries(r.noop.quarantine)
        .map(([reason, n]) => `${reason} ${n}`)
        .join(', ') || 'none';
    const pages = ENTITY_NAMES.map((e) => `${e} ${r.first.pulls[e].pages}/${r.noop.pulls[e].pages}`).join(', ');
    const reread = ENTITY_NAMES.map((e) => `${e} ${r.noop.pulls[e].pulled}`).join(', ');
    lines.push(
      `\npull pages (first/no-op): ${pages}; records read again by the no-op: ${reread}; in quarantine after both: ${q}`,
    );
    if (MAX_PAGE[r.system]!.note) lines.push(`\nmax page: ${MAX_PAGE[r.system]!.note}`);
    lines.push('');
  }
  return lines;
}

async function main() {
  const redis = await resolveRedis();
  const cleanup = stateConnection(redis.url);
  const prefixes: string[] = [];
  const billing = await forkBillingEmulator(KEY);
  const runs: VendorRun[] = [];
  try {
    for (const profile of PROFILES) runs.push(await runVendor(profile, billing.url, redis.url, prefixes));
  } finally {
    billing.stop();
    for (const p of prefixes) await deleteKeysWithPrefix(cleanup, p);
    await cleanup.quit();
    await redis.stop();
  }
  console.log(report(runs).join('\n'));
}

await main();
