/**
 * The test harness: the whole pipeline on real parts, for any test that needs billing, a vendor and
 * workers. One call starts
 * - the billing emulator and one Zoho Books emulator per connection, on loopback;
 * - a config on a Redis prefix of the test's own (`test-<name>-<random>`, dropped by close()), its
 *   secrets random and passed as `${VAR}` references filled from `secretEnv`, as in production;
 * - either a runtime `rt` the test enqueues and inspects with, and workers on demand — in-process
 *   (`startWorkers(roles)`) or the real CLI in a child process (`spawnWorker(roles)`, needs `npm run build`) —
 * - or, with `service`, the real service (`startService`: schedulers, workers, HTTP server with /metrics
 *   and /admin/queues) whose runtime is `rt`, its logs captured in `lines`.
 *
 * Shapes (`companies`):
 * - 'one' (default): connection CONNECTION → billing company COMPANY, origin ORIGIN; with
 *   `secondConnection`, SECOND_CONNECTION too (another Zoho organisation, `zoho2`, origin SECOND_ORIGIN,
 *   same company). 50 invoices unless `invoices`.
 * - 'two': ACME.connection → company acme on the default `billing` keys (company unnamed) and
 *   GLOBEX.connection → company globex on its own keys (named); `keys` holds both companies' keys and a
 *   second key each to rotate to, also in `secretEnv` as ACME_KEY, ACME_KEY_ROTATED, ACME_ATTACH,
 *   GLOBEX_KEY, GLOBEX_KEY_ROTATED, GLOBEX_ATTACH. 30 invoices per organisation unless `invoices`.
 *
 * Waiting: `waitForBackfill(runId)`, `waitForDrain()`, `queueEvents(queue)` (BullMQ events), `waitForPull()`
 * (service); every wait is on an event or on Redis/emulator state, never on elapsed time.
 *
 *   const h = await startHarness({ name: 'my-test', invoices: 20 });
 *   h.startWorkers(['pull', 'upsert', 'backfill']);
 *   await h.waitForBackfill((await h.backfill()).runId);
 *   expect((await h.compareWithSource()).problems).toEqual([]);
 *   await h.close();
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { stringify as toYaml } from 'yaml';
import { createRuntime } from '../../app/create-runtime.js';
import { type Service, startService } from '../../app/service.js';
import { ALL_ROLES, type Role, startWorkers, type WorkerService } from '../../app/worker-service.js';
import { validateSettings } from '../../connectors/registry.js';
import { addBackfill } from '../../jobs/backfill/backfill-processor.js';
import { QUEUES, queuePrefix, type QueueName } from '../../jobs/catalog.js';
import type { Runtime } from '../../jobs/runtime.js';
import type { StoredInvoice } from '../../sandbox/billing/billing-store.js';
import type { FaultConfigInput } from '../../sandbox/kit/faults.js';
import type { JournalEntry } from '../../sandbox/kit/journal.js';
import type { ZohoEmulator, ZohoEmulatorOptions } from '../../sandbox/zoho-books/index.js';
import { type AppConfig, parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { isClusterUrl, workerConnection } from '../../src/redis.js';
import { type ChildWorker, spawnChildWorker } from './child-worker.js';
import { connectionSpecs, HISTORY, rawHarnessConfig, UPSERT_PATH } from './harness-config.js';
import { randomSecrets, type Secrets, startEmulators } from './harness-emulators.js';
import { describeQueues, drained, waitForBackfill, waitForDrain } from './queue-waits.js';
import { connect, dropPrefix, TEST_REDIS_URL } from './redis.js';
import { billingInvoicesOf, compareWithSource, expectedInvoicesOf } from './source-comparison.js';
import { until } from './until.js';

export * from './harness-config.js';
export type { ChildWorker } from './child-worker.js';
export type { CompanyKeys, Secrets } from './harness-emulators.js';
export { intervals, maxInFlight } from './journal-intervals.js';
export { CLI, REPO_ROOT } from './repo-paths.js';
export { until } from './until.js';

export interface HarnessOptions {
  /** Names the Redis prefix (`test-<name>-<random>`) and the config. */
  name: string;
  /** The shape: one billing company (default) or two (see the top of this file). */
  companies?: 'one' | 'two';
  /** 'one' only: SECOND_CONNECTION beside the first, with its own Zoho emulator (`zoho2`). */
  secondConnection?: boolean;
  /** The real service instead of a bare runtime: all roles unless `roles`; logs at `logLevel` (info) into `lines`; the queue UI behind `secrets.adminToken` unless `queueUi` is false. */
  service?: { roles?: readonly Role[]; logLevel?: string; queueUi?: boolean };
  /** Zoho invoices per organisation, and customers (default: one per ten invoices, 5 to 60; 'two': one per five, at least 5); no credit notes. */
  invoices?: number;
  customers?: number;
  /** Extra options of the first Zoho emulator (faults, seed, ...). */
  zoho?: Partial<ZohoEmulatorOptions>;
  /** Billing emulator faults from the start (e.g. { errorNext: 12 }). */
  billingFaults?: FaultConfigInput;
  /** The connections' `syncDrafts` (default true here: the generated history's drafts are synced). */
  syncDrafts?: boolean;
  /** The connections' pull schedule. @defaultValue 3600 (tests drive their own pulls) */
  everySeconds?: number;
  /** The connections' settle delay. @defaultValue 0 */
  settleDelaySeconds?: number;
  /** Overrides of the `billing` section (`rateLimit` is merged into the default one). */
  billing?: Record<string, unknown>;
  /** Overrides of the `sync` section. */
  sync?: Record<string, unknown>;
  /** Overrides of the `reconcile` section (default: no scheduled reconcile). */
  reconcile?: Record<string, unknown>;
  /** Overrides of the connections' vendor budget. @defaultValue 1,000,000/min, 8 at once */
  rateBudget?: { perMinute?: number; perDay?: number; concurrency?: number };
  /** Overrides of the Zoho connection settings (detailConcurrency, ...). */
  settings?: Record<string, unknown>;
  /** Extra raw `connections[]` entries (e.g. one pointing nowhere). */
  extraConnections?: Array<Record<string, unknown>>;
  /** The Redis the runtime and workers use (default: the test Redis), e.g. one a test restarts. */
  redisUrl?: string;
  /** Secrets; the defaults are random per run. */
  secrets?: Partial<Secrets>;
  /** The attachment key billing accepts, when it should not be the one the worker is given. */
  billingAcceptsAttachmentKey?: string;
  /** Leave billing.attachmentKey out of the worker's config. */
  withoutAttachmentKey?: boolean;
}

/** A config variant: `billing` merged into the `billing` section; `connectionBilling` replaces connections' `billing` sections, by id. */
export interface ConfigVariant {
  billing?: Record<string, unknown>;
  connectionBilling?: Record<string, Record<string, unknown>>;
}

export type Harness = Awaited<ReturnType<typeof startHarness>>;

export async function startHarness(options: HarnessOptions) {
  const companies = options.companies ?? 'one';
  const suffix = randomBytes(4).toString('hex');
  const { secrets, keys } = randomSecrets(suffix, options.secrets);
  const prefix = `test-${options.name}-${suffix}`;
  const redisUrl = options.redisUrl ?? TEST_REDIS_URL;
  const specs = connectionSpecs(companies, options.secondConnection ?? false);
  const redis = connect(options.redisUrl);
  const cleanups: Array<() => Promise<unknown>> = [];
  const emulators: Array<{ close(): Promise<void> }> = [];
  let service: Service | undefined;
  const close = async () => {
    await service?.stop().catch(() => {});
    for (const c of cleanups.reverse()) await c().catch(() => {});
    cleanups.length = 0;
    for (const e of emulators) await e.close().catch(() => {});
    await dropPrefix(redis, prefix);
    await redis.quit();
  };
  const invoices = options.invoices ?? (companies === 'two' ? 30 : 50);
  const customers =
    options.customers ??
    (companies === 'two' ? Math.max(5, Math.ceil(invoices / 5)) : Math.max(5, Math.min(60, Math.ceil(invoices / 10))));
  let started: Awaited<ReturnType<typeof startEmulators>>;
  try {
    started = await startEmulators(
      {
        companies,
        specs,
        secrets,
        keys,
        invoices,
        customers,
        zoho: options.zoho,
        billingFaults: options.billingFaults,
        billingAcceptsAttachmentKey: options.billingAcceptsAttachmentKey,
      },
      (e) => emulators.push(e),
    );
  } catch (e) {
    await close();
    throw e;
  }
  const { billing: b, zoho } = started;

  const rawWith = (variant: ConfigVariant = {}) =>
    rawHarnessConfig({
      ...options,
      billingUrl: b.url,
      prefix,
      specs,
      zoho,
      http: options.service ? { queueUi: options.service.queueUi ?? true } : undefined,
      billing: { ...options.billing, ...variant.billing },
      connectionBilling: variant.connectionBilling,
    });
  /** The config as the YAML file holds it (secrets as `${VAR}`), for a test that writes its own variant. */
  const rawConfig = rawWith();
  const secretEnv: Record<string, string> = {
    REL_BILLING_API_KEY: secrets.billingApiKey,
    REL_BILLING_ATTACHMENT_KEY: secrets.billingAttachmentKey,
    REL_ZOHO_CLIENT_SECRET: secrets.zohoClientSecret,
    REL_ZOHO_REFRESH_TOKEN: secrets.zohoRefreshToken,
    ...(options.service ? { REL_ADMIN_TOKEN: secrets.adminToken } : {}),
    ...(companies === 'two'
      ? {
          ACME_KEY: keys.acme,
          ACME_KEY_ROTATED: keys.acmeRotated,
          ACME_ATTACH: keys.acmeAttach,
          GLOBEX_KEY: keys.globex,
          GLOBEX_KEY_ROTATED: keys.globexRotated,
          GLOBEX_ATTACH: keys.globexAttach,
        }
      : {}),
  };
  /** The harness's config with a variant (a rotated key, another connection's billing section, ...). */
  const configWith = (variant: ConfigVariant = {}): AppConfig =>
    parseConfig(rawWith(variant), secretEnv, validateSettings, `${options.name} config`);
  const config = configWith();

  // Runtimes are quiet (TEST_LOG_LEVEL=debug to watch them); the service logs into `lines`; child workers to their output.
  const lines: string[] = [];
  const logger = (): Logger => createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent', format: 'json' });
  /** A runtime (another "process" as far as Redis is concerned) on `cfg` (default: the harness's); closed by close(). */
  const newRuntime = async (cfg: AppConfig = config): Promise<Runtime> => {
    const rt = await createRuntime(cfg, redisUrl, logger());
    cleanups.push(() => rt.close());
    return rt;
  };
  let rt: Runtime;
  try {
    if (options.service) {
      const serviceLogger = createLogger({
        level: options.service.logLevel ?? 'info',
        format: 'json',
        destination: { write: (s: string) => void lines.push(s) },
      });
      service = await startService(config, serviceLogger, { roles: options.service.roles ?? ALL_ROLES, httpPort: 0 });
      rt = service.rt;
    } else rt = await newRuntime();
  } catch (e) {
    await close();
    throw e;
  }
  const needService = (): Service => {
    if (!service) throw new Error('this harness runs no service: startHarness({ service: {} }) starts one');
    return service;
  };

  let dir: string | undefined;
  /** The YAML config file (secrets as `${VAR}`, filled by `secretEnv`), for CLI children. */
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
  const first = { rt, billing: b, connectionId: specs[0]!.id, company: specs[0]!.company, origin: specs[0]!.origin };

  const harness = {
    billing: b,
    /** The first connection's Zoho emulator. */
    zoho: zoho[0]!,
    /** The second connection's (`secondConnection`, or GLOBEX's in the two-companies shape). */
    zoho2: zoho[1],
    /** A connection's Zoho emulator, by connection id. */
    zohoOf(connectionId: string): ZohoEmulator {
      const n = specs.findIndex((s) => s.id === connectionId);
      if (n < 0) throw new Error(`no connection ${connectionId} in this harness`);
      return zoho[n]!;
    },
    prefix,
    secrets,
    /** The two-companies shape's billing keys (acme's are `secrets`' billing keys). */
    keys,
    config,
    rawConfig,
    configWith,
    /** The runtime the test enqueues and inspects with (the service's, with `service`). */
    rt,
    /** A plain Redis connection for inspection. */
    redis: redis as Redis,
    newRuntime,
    close,
    configFile,
    secretEnv,
    /** The service (with `service`), its HTTP URL, and its captured log lines (JSON, one per entry). */
    get service(): Service {
      return needService();
    },
    get url(): string {
      return needService().httpUrl;
    },
    lines,

    /** In-process workers of `roles` on `runtime` (default: the test's runtime); stopped by close(). */
    startWorkers(roles: readonly Role[], runtime: Runtime = rt): WorkerService {
      const w = startWorkers(runtime, roles);
      inProcess.push(w);
      cleanups.push(() => w.stop(2_000));
      return w;
    },

    /** The real CLI worker in a child process (killed by close()); resolves once it logged "worker started". */
    async spawnWorker(roles: readonly Role[], env: Record<string, string> = {}): Promise<ChildWorker> {
      const child = await spawnChildWorker(await configFile(), roles, { ...secretEnv, ...env });
      cleanups.push(async () => {
        child.kill('SIGKILL');
        await child.exited;
      });
      return child;
    },

    /** A QueueEvents listener on `queue` (closed by close()), ready before it returns. */
    async queueEvents(queue: string): Promise<QueueEvents> {
      const connection = workerConnection(redisUrl);
      const qe = new QueueEvents(queue, {
        connection,
        prefix: queuePrefix(prefix, queue as QueueName, { cluster: isClusterUrl(redisUrl) }),
      });
      cleanups.push(async () => {
        await qe.close();
        connection.disconnect();
      });
      await qe.waitUntilReady();
      return qe;
    },

    /** Adds a backfill of the whole generated history of the first connection (the test's runtime enqueues it; workers run it). */
    backfill(opts: { restart?: boolean } = {}) {
      return addBackfill(
        rt,
        { connectionId: specs[0]!.id, entities: config.connections[0]!.entities, ...HISTORY },
        { restart: opts.restart },
      );
    },
    /** Waits as `erp-sync backfill` does (see queue-waits.ts). */
    waitForBackfill: (runId: string, timeoutMs = 60_000) =>
      waitForBackfill(rt, runId, () => (backfillEvents ??= harness.queueEvents(QUEUES.backfill)), inProcess, timeoutMs),
    /** Job counts by queue and state, for failure messages. */
    describeQueues: () => describeQueues(rt),
    /** Nothing waiting, active or delayed in the pull and upsert queues (see queue-waits.ts). */
    drained: () => drained(rt, inProcess),
    waitForDrain: (timeoutMs = 60_000) => waitForDrain(rt, inProcess, timeoutMs),

    /** The service's /metrics text. */
    async metrics(): Promise<string> {
      return (await fetch(`${needService().httpUrl}/metrics`)).text();
    },
    /** Resolves once the service completed an incremental pull of `entity` (its own gauge says so). */
    async waitForPull(entity = 'invoices', timeoutMs = 30_000) {
      const gauge = `erpsync_last_success_timestamp_seconds{connection="${specs[0]!.id}",entity="${entity}"}`;
      await until(`a completed pull of ${entity}`, async () => (await harness.metrics()).includes(gauge), timeoutMs);
    },

    /** Billing's request journal (non-admin requests), optionally one path. */
    journal(path?: string): JournalEntry[] {
      return b.journal.list({ path });
    },
    /** Successful invoice upsert POSTs billing has answered so far. */
    upsertPosts(): number {
      return b.journal.list({ path: UPSERT_PATH }).filter((e) => e.status === 200).length;
    },
    /** The first connection's invoices in billing, by ERP id; two for one ERP id throws. */
    billingInvoices: () => billingInvoicesOf(first),
    /** The first connection's source mapped afresh (see source-comparison.ts). */
    expectedInvoices: () => expectedInvoicesOf(first),
    /** Billing against the first connection's source, record for record (see source-comparison.ts). */
    compareWithSource: (opts: { except?: Set<string> } = {}) => compareWithSource(first, opts),
    /** Every upsert job still in Redis (the last 1,000 completed ones, and the failed ones). */
    upsertJobs(
      states: Array<'completed' | 'failed' | 'wait' | 'active' | 'delayed' | 'prioritized'> = ['completed', 'failed'],
    ) {
      return rt.queues.upsert.getJobs(states, 0, -1);
    },
    /** A company's invoices in billing, straight from the emulator's store. */
    invoicesOf(company: string): StoredInvoice[] {
      return b.store.company(company).invoices;
    },
    /** A company's customers' buyer ids in billing. */
    buyersOf(company: string): string[] {
      return b.store.company(company).customers.map((c) => c.details.buyerId);
    },
    /**
     * Voids in the company's billing the invoices the connection's source holds as void (what a person
     * does; no sync can); default: the first connection. Returns how many; a refused void throws.
     */
    async mirrorSourceVoids(
      c: { connection: string; company: string } = { connection: specs[0]!.id, company: specs[0]!.company },
    ): Promise<number> {
      let n = 0;
      for (const inv of harness
        .zohoOf(c.connection)
        .store.invoices()
        .filter((i) => i.status === 'void')) {
        const e = await rt.ledger.get(c.connection, 'invoices', inv.invoice_id);
        if (!e) continue;
        const res = await fetch(
          `${b.url}/__admin/invoices/${encodeURIComponent(e.billingId)}/void?company=${c.company}`,
          { method: 'POST' },
        );
        if (!res.ok) throw new Error(`void ${e.billingId} in ${c.company}: ${res.status} ${await res.text()}`);
        n++;
      }
      return n;
    },
  };
  return harness;
}
