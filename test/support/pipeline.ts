import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { stringify as toYaml } from 'yaml';
import { validateSettings } from '../../connectors/registry.js';
import type { BillingBody, MapContext } from '../../src/connector/types.js';
import {
  startZohoEmulator,
  ZOHO_SANDBOX_DEFAULTS,
  type ZohoEmulator,
  type ZohoEmulatorOptions,
} from '../../sandbox/zoho-books/index.js';
import { addBackfill, runBacklog } from '../../jobs/backfill.js';
import { failedUpsertHelpers } from '../../app/job-helpers.js';
import { QUEUES, queuePrefix, type QueueName } from '../../jobs/catalog.js';
import { createRuntime } from '../../app/create-runtime.js';
import type { Runtime } from '../../jobs/runtime.js';
import { type Role, startWorkers, type WorkerService } from '../../app/worker-service.js';
import { InvoiceUpsertBody } from '../../src/billing/schemas/index.js';
import { type AppConfig, parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/observability/logger.js';
import type { StoredInvoice } from '../../sandbox/billing/billing-store.js';
import { startBillingEmulator, type BillingEmulator } from '../../sandbox/billing/billing-emulator.js';
import type { JournalEntry } from '../../sandbox/kit/journal.js';
import { isClusterUrl, workerConnection } from '../../src/redis.js';
import { connect, dropPrefix, TEST_REDIS_URL } from './redis.js';
import { until } from './until.js';

/**
 * The whole pipeline on real parts, for reliability tests: the billing emulator and the Zoho Books
 * emulator on loopback, a runtime on a unique Redis prefix (used by the test to enqueue and inspect),
 * in-process workers on demand, and real CLI workers as child processes (`node dist/cli/main.js worker`)
 * reading a YAML config written here, with secrets passed through the environment as in production.
 *
 * Timings are small so a test takes seconds: BullMQ backoff 100 ms, no settle delay, a 5 s lookback,
 * job locks of 5 s checked every second (a killed worker's jobs come back within ~7 s instead of ~60 s),
 * and a connection `rateBudget` so vendor quotas never slow a test unless it asks for them.
 */

export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const CLI = join(REPO_ROOT, 'dist/cli/main.js');
export const CONNECTION = 'zoho-rel';
/** The second connection (with `secondConnection`): another Zoho Books organisation, its own emulator. */
export const SECOND_CONNECTION = 'zoho-rel-two';
export const SECOND_ORIGIN = 'EXTERNAL_SYSTEM_B';
export const COMPANY = 'rel';
export const ORIGIN = 'EXTERNAL_SYSTEM_A';
/** The range the Zoho generator fills (its default): a backfill of it reads every document. */
export const HISTORY = { from: '2025-01-01', to: '2025-12-31' } as const;
export const UPSERT_PATH = '/external/invoice/upsert';

export interface PipelineOptions {
  /** Names the Redis prefix (`test-<name>-<random>`). */
  name: string;
  /** The connection's `syncDrafts` (default true here: the generated history's drafts are synced). */
  syncDrafts?: boolean;
  /** Zoho invoices, and customers (default: one per ten invoices, 5 to 60); no credit notes. */
  invoices?: number;
  customers?: number;
  /** Overrides of the `sync` section. */
  sync?: Record<string, unknown>;
  /** The Redis the runtime and workers use (default: the test Redis), e.g. one a test restarts. */
  redisUrl?: string;
  /** Overrides of the `reconcile` section (default: no scheduled reconcile). */
  reconcile?: Record<string, unknown>;
  /** Overrides of the `billing` section (outage, rateLimit, ...). */
  billing?: Record<string, unknown>;
  /** Overrides the connection's vendor budget. @defaultValue 1,000,000/min, 8 at once */
  rateBudget?: { perMinute?: number; perDay?: number; concurrency?: number };
  /** Overrides of the Zoho connection settings (detailConcurrency, ...). */
  settings?: Record<string, unknown>;
  /** Extra Zoho emulator options (faults, ...). */
  zoho?: Partial<ZohoEmulatorOptions>;
  /**
   * A second connection beside the first, for tests of one connection while the other syncs:
   * SECOND_CONNECTION, with its own Zoho emulator (`zoho2`, as many invoices, another seed) and billing
   * origin SECOND_ORIGIN (so billingInvoices() and compareWithSource() still see the first one only).
   */
  secondConnection?: boolean;
  /** Secrets; the defaults are random per run. */
  secrets?: Partial<Secrets>;
  /** The attachment key billing accepts, when it should not be the one the worker is given. */
  billingAcceptsAttachmentKey?: string;
  /** Leave billing.attachmentKey out of the worker's config. */
  withoutAttachmentKey?: boolean;
}

export interface Secrets {
  billingApiKey: string;
  billingAttachmentKey: string;
  zohoClientSecret: string;
  zohoRefreshToken: string;
}

export interface ChildWorker {
  proc: ChildProcess;
  /** Everything it wrote so far (stdout and stderr, interleaved as received). */
  output(): string;
  /** Resolves with how it ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends a signal by pid (only to this child). */
  kill(signal: NodeJS.Signals): void;
  /** Resolves once its output contains `text` (checked on each chunk); rejects if it exits first or after `timeoutMs`. */
  waitForOutput(text: string, timeoutMs?: number): Promise<void>;
}

export type Pipeline = Awaited<ReturnType<typeof startPipeline>>;

export { until } from './until.js';

export async function startPipeline(options: PipelineOptions) {
  const suffix = randomBytes(4).toString('hex');
  const secrets: Secrets = {
    billingApiKey: `rel-billing-key-${suffix}`,
    billingAttachmentKey: `rel-attach-key-${suffix}`,
    zohoClientSecret: `rel-zoho-secret-${suffix}`,
    zohoRefreshToken: `1000.rel-zoho-refresh-${suffix}`,
    ...options.secrets,
  };
  const prefix = `test-${options.name}-${suffix}`;
  const redis = connect(options.redisUrl);
  const cleanups: Array<() => Promise<unknown>> = [];
  let billing: BillingEmulator | undefined;
  let zoho: ZohoEmulator | undefined;
  let zoho2: ZohoEmulator | undefined;
  const close = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
    cleanups.length = 0;
    await zoho?.close();
    await zoho2?.close();
    await billing?.close();
    await dropPrefix(redis, prefix);
    await redis.quit();
  };
  try {
    billing = await startBillingEmulator({
      port: 0,
      keys: [{ key: secrets.billingApiKey, companyId: COMPANY }],
      attachmentKeys: [
        { key: options.billingAcceptsAttachmentKey ?? secrets.billingAttachmentKey, companyId: COMPANY },
      ],
    });
    zoho = await startZohoEmulator({
      port: 0,
      seed: 5,
      records: options.invoices ?? 50,
      customers: options.customers ?? Math.max(5, Math.min(60, Math.ceil((options.invoices ?? 50) / 10))),
      creditNotes: 0,
      ratePerMinute: 0,
      dailyLimit: 0,
      clientSecret: secrets.zohoClientSecret,
      refreshToken: secrets.zohoRefreshToken,
      ...options.zoho,
    });
    if (options.secondConnection)
      zoho2 = await startZohoEmulator({
        port: 0,
        seed: 6,
        records: options.invoices ?? 50,
        customers: options.customers ?? Math.max(5, Math.min(60, Math.ceil((options.invoices ?? 50) / 10))),
        creditNotes: 0,
        ratePerMinute: 0,
        dailyLimit: 0,
        clientSecret: secrets.zohoClientSecret,
        refreshToken: secrets.zohoRefreshToken,
      });
  } catch (e) {
    await close();
    throw e;
  }
  const b = billing;
  const z = zoho;

  /** The config as the YAML file holds it: secrets are `${VAR}` references, filled from `secretEnv`. */
  const rawConfig = {
    billing: {
      url: b.url,
      apiKey: '${REL_BILLING_API_KEY}',
      ...(options.withoutAttachmentKey ? {} : { attachmentKey: '${REL_BILLING_ATTACHMENT_KEY}' }),
      baseCurrency: 'INR',
      // The billing rate limit (the upsert queue's BullMQ limiter) is far above what a test sends.
      rateLimit: { max: 5000, durationMs: 1000 },
      timeoutMs: 10_000,
      ...options.billing,
    },
    redis: { url: options.redisUrl ?? TEST_REDIS_URL, prefix },
    http: { host: '127.0.0.1' },
    sync: {
      upsertConcurrency: 8,
      pullConcurrency: 4,
      attempts: 8,
      backoffMs: 100,
      backlogHighWater: 5000,
      graceSeconds: 10,
      lockDurationMs: 5000,
      stalledIntervalMs: 1000,
      ...options.sync,
    },
    reconcile: { windowDays: 0, ...options.reconcile },
    connections: [
      {
        id: CONNECTION,
        system: 'zoho-books',
        originSource: ORIGIN,
        entities: ['customers', 'invoices'],
        // Schedulers fire at once and then hourly: a test drives its own pulls and backfills.
        schedule: { everySeconds: 3600 },
        lookbackSeconds: 5,
        settleDelaySeconds: 0,
        // The suite's counts take every generated invoice, drafts too; a test of drafts asks for false.
        syncDrafts: options.syncDrafts ?? true,
        rateBudget: { perMinute: 1_000_000, concurrency: 8, ...options.rateBudget },
        settings: {
          organizationId: z.organizationId,
          clientId: ZOHO_SANDBOX_DEFAULTS.clientId,
          clientSecret: '${REL_ZOHO_CLIENT_SECRET}',
          refreshToken: '${REL_ZOHO_REFRESH_TOKEN}',
          baseUrl: z.apiBase,
          accountsUrl: z.url,
          dailyCallLimit: 0,
          lookupsCacheSeconds: 0,
          ...options.settings,
        },
      },
    ],
  };
  const z2 = zoho2;
  if (z2) {
    const first = rawConfig.connections[0]!;
    rawConfig.connections.push({
      ...first,
      id: SECOND_CONNECTION,
      originSource: SECOND_ORIGIN,
      settings: { ...first.settings, organizationId: z2.organizationId, baseUrl: z2.apiBase, accountsUrl: z2.url },
    });
  }
  const secretEnv = {
    REL_BILLING_API_KEY: secrets.billingApiKey,
    REL_BILLING_ATTACHMENT_KEY: secrets.billingAttachmentKey,
    REL_ZOHO_CLIENT_SECRET: secrets.zohoClientSecret,
    REL_ZOHO_REFRESH_TOKEN: secrets.zohoRefreshToken,
  };
  const config: AppConfig = parseConfig(rawConfig, secretEnv, validateSettings, `${options.name} config`);

  // In-process runtimes are quiet (TEST_LOG_LEVEL=debug to watch them); child workers log to their output.
  const logger = (): Logger => createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent', format: 'json' });
  /** A runtime (another "process" as far as Redis is concerned); closed by close(). */
  const newRuntime = async (): Promise<Runtime> => {
    const rt = await createRuntime(config, options.redisUrl ?? TEST_REDIS_URL, logger());
    cleanups.push(() => rt.close());
    return rt;
  };
  let rt: Runtime;
  try {
    rt = await newRuntime();
  } catch (e) {
    await close();
    throw e;
  }

  let dir: string | undefined;
  const configFile = async (): Promise<string> => {
    if (!dir) {
      const d = await mkdtemp(join(tmpdir(), `${options.name}-`));
      dir = d;
      cleanups.unshift(() => rm(d, { recursive: true, force: true }));
      await writeFile(join(d, 'erp-sync.yaml'), toYaml(rawConfig));
    }
    return join(dir, 'erp-sync.yaml');
  };

  // In-process workers: the queues are only drained once what they do after a job failed is written.
  const inProcess: WorkerService[] = [];
  let backfillEvents: Promise<QueueEvents> | undefined;

  const pipeline = {
    billing: b,
    zoho: z,
    /** The second connection's emulator (with `secondConnection`). */
    zoho2: z2,
    prefix,
    secrets,
    config,
    /** The config as the YAML file holds it (secrets as `${VAR}`), for a test that writes its own variant. */
    rawConfig,
    /** The runtime the test uses to enqueue and inspect (no workers unless started). */
    rt,
    /** A plain Redis connection for inspection. */
    redis: redis as Redis,
    newRuntime,
    close,
    /** The YAML config file (secrets as `${VAR}`) and the environment that fills them, for CLI children. */
    configFile,
    secretEnv,

    /** In-process workers of `roles` on `runtime` (default: the test's runtime); stopped by close(). */
    startWorkers(roles: readonly Role[], runtime: Runtime = rt): WorkerService {
      const w = startWorkers(runtime, roles);
      inProcess.push(w);
      cleanups.push(() => w.stop(2_000));
      return w;
    },

    /** The real CLI worker in a child process; resolves once it logged "worker started". */
    async spawnWorker(roles: readonly Role[], env: Record<string, string> = {}): Promise<ChildWorker> {
      const file = await configFile();
      const proc = spawn(
        process.execPath,
        [CLI, 'worker', '--config', file, '--roles', roles.join(','), '--http-port', '0'],
        {
          cwd: REPO_ROOT,
          env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...secretEnv, ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
        proc.once('exit', (code, signal) => done({ code, signal })),
      );
      let ended = false;
      void exited.then(() => (ended = true));
      const waitForOutput = (text: string, timeoutMs = 20_000) =>
        new Promise<void>((found, failed) => {
          const timer = setTimeout(
            () => done(new Error(`the child worker did not write ${text} within ${timeoutMs} ms:\n${out}`)),
            timeoutMs,
          );
          const onOutput = () => {
            if (out.includes(text)) done();
          };
          const onExit = () => done(new Error(`the child worker exited before it wrote ${text}:\n${out}`));
          const done = (err?: Error) => {
            clearTimeout(timer);
            proc.stdout!.off('data', onOutput);
            proc.stderr!.off('data', onOutput);
            proc.off('exit', onExit);
            if (err) failed(err);
            else found();
          };
          proc.stdout!.on('data', onOutput);
          proc.stderr!.on('data', onOutput);
          proc.once('exit', onExit);
          if (out.includes(text)) done();
          else if (ended) onExit();
        });
      const child: ChildWorker = {
        proc,
        output: () => out,
        exited,
        kill: (signal) => {
          if (!ended && proc.pid) process.kill(proc.pid, signal);
        },
        waitForOutput,
      };
      cleanups.push(async () => {
        child.kill('SIGKILL');
        await exited;
      });
      // Started = it logged "worker started", until it exits or 20 s pass.
      await waitForOutput('"worker started"');
      return child;
    },

    /** A QueueEvents listener on `queue` (closed by close()), ready before it returns. */
    async queueEvents(queue: string): Promise<QueueEvents> {
      const url = options.redisUrl ?? TEST_REDIS_URL;
      const connection = workerConnection(url);
      const qe = new QueueEvents(queue, {
        connection,
        prefix: queuePrefix(prefix, queue as QueueName, { cluster: isClusterUrl(url) }),
      });
      cleanups.push(async () => {
        await qe.close();
        connection.disconnect();
      });
      await qe.waitUntilReady();
      return qe;
    },

    /** Adds a backfill of the whole generated history (the test's runtime enqueues it; workers run it). */
    backfill(opts: { restart?: boolean } = {}) {
      return addBackfill(
        rt,
        { connectionId: CONNECTION, entities: config.connections[0]!.entities, ...HISTORY },
        { restart: opts.restart },
      );
    },

    /**
     * Waits as `erp-sync backfill` does: the parent completed (its completion event), and none of the
     * run's own upserts left (runBacklog, which hands a failed batch's unwritten records over itself: the
     * queues alone look drained between a batch failing and its worker's 'failed' event enqueuing its
     * records, and drained() does not wait for that event in workers the test started itself); and
     * nothing waiting, active or delayed.
     */
    async waitForBackfill(runId: string, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      const parent = await rt.queues.backfill.getJob(runId);
      if (!parent) throw new Error(`backfill ${runId}: no such parent job`);
      try {
        await parent.waitUntilFinished(await (backfillEvents ??= pipeline.queueEvents(QUEUES.backfill)), timeoutMs);
      } catch (e) {
        const state = await parent.getState();
        if (state === 'failed')
          throw new Error(
            `backfill failed: ${(await rt.queues.backfill.getJob(runId))?.failedReason ?? (e as Error).message}`,
          );
        throw new Error(
          `backfill ${runId} did not complete within ${timeoutMs} ms: parent ${state}; ${await pipeline.describeQueues()}`,
        );
      }
      // Drained first, so the run's backlog is counted once its jobs are (nearly) all done: each count asks
      // BullMQ the state of every job of the run still pending.
      const left = () => Math.max(0, deadline - Date.now());
      await pipeline.waitForDrain(left());
      const failedUpsert = failedUpsertHelpers(rt);
      await until(
        `backfill ${runId} to have no upsert left`,
        async () => (await runBacklog(rt, runId, failedUpsert)) === 0,
        left(),
        100,
      );
      await pipeline.waitForDrain(left());
    },

    /** Job counts by queue and state, for failure messages. */
    async describeQueues(): Promise<string> {
      const out: string[] = [];
      for (const q of Object.values(rt.queues)) {
        const c = await q.getJobCounts(
          'wait',
          'prioritized',
          'active',
          'delayed',
          'waiting-children',
          'completed',
          'failed',
        );
        out.push(
          `${q.name} ${
            Object.entries(c)
              .filter(([, n]) => n > 0)
              .map(([k, n]) => `${k}=${n}`)
              .join(' ') || 'empty'
          }`,
        );
      }
      return out.join('; ');
    },

    /**
     * Nothing waiting, prioritized, active or delayed in the pull and upsert queues, read twice: a job
     * that moved between two queues' reads in the first is seen by the second. In between, the in-process
     * workers' follow-up writes of failed jobs (quarantine entries) are awaited. A scheduler's next run
     * (a delayed `repeat:` job) is not work in progress.
     */
    async drained(): Promise<boolean> {
      const busy = async () => {
        const p = await rt.queues.pull.getJobCounts('wait', 'prioritized', 'active', 'waiting-children');
        const u = await rt.queues.upsert.getJobCounts('wait', 'prioritized', 'active', 'delayed');
        const delayedPulls = (await rt.queues.pull.getDelayed()).filter((j) => !j.id?.startsWith('repeat:')).length;
        return Object.values(p).reduce((a, x) => a + x, 0) + Object.values(u).reduce((a, x) => a + x, 0) + delayedPulls;
      };
      if ((await busy()) > 0) return false;
      await Promise.all(inProcess.map((w) => w.settled()));
      return (await busy()) === 0;
    },

    async waitForDrain(timeoutMs = 60_000) {
      try {
        await until('the pull and upsert queues to drain', () => pipeline.drained(), timeoutMs, 200);
      } catch {
        throw new Error(`the queues did not drain within ${timeoutMs} ms: ${await pipeline.describeQueues()}`);
      }
    },

    /** Billing's request journal (non-admin requests), optionally one path. */
    journal(path?: string): JournalEntry[] {
      return b.journal.list({ path });
    },

    /** Successful invoice upsert POSTs billing has answered so far. */
    upsertPosts(): number {
      return b.journal.list({ path: UPSERT_PATH }).filter((e) => e.status === 200).length;
    },

    /** Billing's invoices of this connection's origin, by ERP id (straight from the emulator's store). */
    billingInvoices(): Map<string, StoredInvoice> {
      const out = new Map<string, StoredInvoice>();
      for (const inv of b.store.company(COMPANY).invoices) {
        if (inv.originSource !== ORIGIN || !inv.input.erpId) continue;
        if (out.has(inv.input.erpId)) throw new Error(`two billing invoices for ERP id ${inv.input.erpId}`);
        out.set(inv.input.erpId, inv);
      }
      return out;
    },

    /** The expected mapping of the source as it is now: every Zoho invoice read and mapped afresh. */
    async expectedInvoices(): Promise<{
      mapped: Map<string, { body: BillingBody; version: string }>;
      quarantined: Map<string, string>;
    }> {
      const handle = rt.connection(CONNECTION);
      const { connector, config: c } = handle;
      const stream = connector.streams.invoices;
      const ctx = handle.readContext({ logger: rt.logger, until: new Date(Date.now() + 60_000) });
      const mapCtx: MapContext = {
        connectionId: c.id,
        originSource: c.originSource,
        baseCurrency: config.billing.baseCurrency,
        lookups: stream.lookups ? await stream.lookups(ctx) : {},
      };
      const mapped = new Map<string, { body: BillingBody; version: string }>();
      const quarantined = new Map<string, string>();
      for await (const page of stream.read(ctx, stream.initialState(undefined))) {
        for (const r of page.records) {
          if (r.deleted) continue;
          const m = stream.map(r, mapCtx);
          if (m.ok) mapped.set(r.id, { body: m.value, version: r.version });
          else quarantined.set(r.id, m.reason);
        }
      }
      return { mapped, quarantined };
    },

    /**
     * Billing against the source as it is now, record for record: every invoice the mapping accepts is
     * in billing exactly once with exactly the mapped content (billing's stored input equals the mapped
     * body as billing parses it: amounts, lines, tax, status, everything), and the ledger holds the
     * source's current version. Returns the problems found (empty = billing is right).
     */
    async compareWithSource(options: { except?: Set<string> } = {}) {
      const { mapped, quarantined } = await pipeline.expectedInvoices();
      const inBilling = pipeline.billingInvoices();
      const problems: string[] = [];
      for (const [erpId, { body, version }] of mapped) {
        if (options.except?.has(erpId)) continue;
        const stored = inBilling.get(erpId);
        if (!stored) {
          problems.push(`${erpId}: missing in billing`);
          continue;
        }
        if (body.kind !== 'invoice') continue;
        const want = InvoiceUpsertBody.parse({ invoice: JSON.parse(JSON.stringify(body.invoice)) }).invoice;
        if (!isDeepStrictEqual(stored.input, want)) {
          const keys = [...new Set([...Object.keys(want), ...Object.keys(stored.input)])];
          const diff = keys.filter(
            (k) =>
              !isDeepStrictEqual((stored.input as Record<string, unknown>)[k], (want as Record<string, unknown>)[k]),
          );
          problems.push(`${erpId}: billing content differs from the source's current version in ${diff.join(', ')}`);
        }
        const entry = await rt.ledger.get(CONNECTION, 'invoices', erpId);
        if (entry?.version !== version)
          problems.push(`${erpId}: ledger version ${entry?.version} ≠ source version ${version}`);
        // Where the connector sends it (its contract asks it to), billing must not hold an older version.
        const held = (stored.input.metaData as Record<string, unknown> | undefined)?.sourceVersion;
        if (typeof held === 'string' && entry && held < entry.version)
          problems.push(`${erpId}: billing holds version ${held}, ledger ${entry.version}`);
      }
      for (const erpId of inBilling.keys())
        if (!mapped.has(erpId) && !options.except?.has(erpId))
          problems.push(`${erpId}: in billing but not a mapped source invoice`);
      return { expected: mapped.size, quarantinedByMapping: quarantined, inBilling: inBilling.size, problems };
    },

    /** Every upsert job still in Redis (the last 1,000 completed ones, and the failed ones). */
    async upsertJobs(
      states: Array<'completed' | 'failed' | 'wait' | 'active' | 'delayed' | 'prioritized'> = ['completed', 'failed'],
    ) {
      return rt.queues.upsert.getJobs(states, 0, -1);
    },
  };
  return pipeline;
}

/**
 * Request intervals from a journal, [start, end) in ms since epoch. The emulator stamps `at` after the
 * response is written and `durationMs` from when its handler started, so `at − durationMs` is the
 * moment the request reached the handler and `at` the moment it was answered.
 */
export function intervals(entries: JournalEntry[]): Array<{ start: number; end: number; entry: JournalEntry }> {
  return entries.map((e) => ({ start: Date.parse(e.at) - e.durationMs, end: Date.parse(e.at), entry: e }));
}

/** The largest number of requests in flight at one instant (an end at t frees its slot before a start at t). */
export function maxInFlight(entries: JournalEntry[]): number {
  const events: Array<[number, number]> = [];
  for (const i of intervals(entries)) events.push([i.start, 1], [i.end, -1]);
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let cur = 0;
  let max = 0;
  for (const [, d] of events) {
    cur += d;
    max = Math.max(max, cur);
  }
  return max;
}
