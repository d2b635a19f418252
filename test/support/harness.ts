/**
 * The test harness: the whole pipeline on real parts — real Redis, the real emulators over loopback — for
 * any test that needs billing, one or more vendors and workers. One call starts
 * - the billing emulator and one vendor emulator per connection (Zoho Books, QuickBooks, Xero: any mix);
 * - a config on a Redis prefix of the test's own (`test-<name>-<random>`, dropped by close()), its
 *   secrets random and passed as `${VAR}` references filled from `secretEnv`, as in production;
 * - either a runtime `rt` the test enqueues and inspects with, and workers on demand — in-process
 *   (`startWorkers(roles)`) or the real CLI in a child process (`spawnWorker(roles)`, needs `npm run build`) —
 * - or, with `service`, the real service (schedulers, workers, HTTP server with /metrics and
 *   /admin/queues) whose runtime is `rt`, its logs captured in `lines`.
 * close() stops all of it in reverse order. Each step is its own part (README.md in this folder), for a
 * test that needs only some of them.
 *
 * Connections (`connections`), each `{ system, ...defaults }` (harness-connections.ts), e.g.
 *   connections: [{ system: 'quickbooks' }, { system: 'xero', emulator: { tenants: [NEW_ZEALAND_TENANT] } }]
 * or a Zoho Books preset (`companies`):
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
import type { QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Service } from '../../app/service.js';
import type { Role, WorkerService } from '../../app/worker-service.js';
import { validateSettings } from '../../connectors/registry.js';
import { addBackfill } from '../../jobs/backfill/backfill-processor.js';
import { QUEUES } from '../../jobs/catalog.js';
import type { Runtime } from '../../jobs/runtime.js';
import type { BillingEmulator } from '../../sandbox/billing/billing-emulator.js';
import type { FaultConfigInput } from '../../sandbox/kit/faults.js';
import type { ZohoEmulator, ZohoEmulatorOptions } from '../../sandbox/zoho-books/index.js';
import { type AppConfig, parseConfig } from '../../src/config.js';
import type { ChildWorker } from './child-worker.js';
import { Cleanups, orCleanUp } from './cleanups.js';
import { billingKeysFor, startBilling } from './harness-billing.js';
import { configFileOf } from './harness-config-file.js';
import {
  type ConnectionSpec,
  type HarnessConnection,
  rawHarnessConfig,
  resolveConnections,
  shapeConnections,
} from './harness-config.js';
import { type DataSize, type StartedVendor, startVendorEmulators } from './harness-emulators.js';
import { billingInspection, mirrorZohoVoids } from './harness-inspect.js';
import { type ServiceOptions, startRuntime, startTestService } from './harness-runtime.js';
import { type CompanyKeys, randomSecrets, type Secrets, secretEnvOf } from './harness-secrets.js';
import { harnessWorkers, type HarnessWorkers } from './harness-workers.js';
import { describeQueues, drained, waitForBackfill, waitForDrain } from './queue-waits.js';
import { connect, dropPrefix, TEST_REDIS_URL } from './redis.js';
import { until } from './until.js';
import { vendorProfile, type VendorEmulators, type VendorSystem } from './vendors/registry.js';

export * from './harness-config.js';
export type { ChildWorker } from './child-worker.js';
export type { CompanyKeys, Secrets } from './harness-secrets.js';
export type { VendorEmulators, VendorSystem } from './vendors/registry.js';
export { intervals, maxInFlight } from './journal-intervals.js';
export { CLI, REPO_ROOT } from './repo-paths.js';
export { until } from './until.js';

export interface HarnessOptions {
  /** Names the Redis prefix (`test-<name>-<random>`) and the config. */
  name: string;
  /** The connections, of any vendors (see harness-connections.ts); instead of `companies`. */
  connections?: HarnessConnection[];
  /** A Zoho Books preset: one billing company (default) or two (see the top of this file). */
  companies?: 'one' | 'two';
  /** 'one' only: SECOND_CONNECTION beside the first, with its own Zoho emulator (`zoho2`). */
  secondConnection?: boolean;
  /** The real service instead of a bare runtime: all roles unless `roles`; logs at `logLevel` (info) into `lines`; the queue UI behind `secrets.adminToken` unless `queueUi` is false. */
  service?: ServiceOptions & { queueUi?: boolean };
  /** Invoices per emulator, and customers (default: one per ten invoices, 5 to 60; 'two': one per five, at least 5); no credit notes. */
  invoices?: number;
  customers?: number;
  /** Extra options of the first connection's Zoho emulator (faults, seed, ...). */
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
  /** More keys of the `http` section (e.g. `publicUrl`, `documentLinkKey`). */
  httpSettings?: Record<string, unknown>;
  /** Overrides of the `reconcile` section (default: no scheduled reconcile). */
  reconcile?: Record<string, unknown>;
  /** The `webhooks` section (the receiver); none unless given. */
  webhooks?: Record<string, unknown>;
  /** Overrides of the connections' vendor budget. @defaultValue 1,000,000/min, 8 at once */
  rateBudget?: { perMinute?: number; perDay?: number; concurrency?: number };
  /** Overrides of every connection's settings (detailConcurrency, ...); a connection's own `settings` win. */
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

/** The harness's parts, composed: see the top of this file. */
export async function startHarness(options: HarnessOptions) {
  if (options.connections && (options.companies || options.secondConnection))
    throw new Error('startHarness: give `connections` or a Zoho preset (`companies`, `secondConnection`), not both');
  const suffix = randomBytes(4).toString('hex');
  const { secrets, keys, vendors: vendorSecrets } = randomSecrets(suffix, options.secrets);
  const prefix = `test-${options.name}-${suffix}`;
  const redisUrl = options.redisUrl ?? TEST_REDIS_URL;
  const two = options.companies === 'two';
  const specs = resolveConnections(
    options.connections ??
      shapeConnections(two ? 'two' : 'one', options.secondConnection ?? false).map((c, n) =>
        n === 0 && options.zoho ? { ...c, emulator: { ...c.emulator, ...options.zoho } } : c,
      ),
  );
  const redis = connect(options.redisUrl);
  const cleanups = new Cleanups();
  // Added first, so it runs last: the prefix is dropped once nothing writes to it any more.
  cleanups.add(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });
  const companyKeys = two ? keys : undefined;
  const billingKeys = billingKeysFor(specs, secrets, {
    companyKeys,
    acceptsAttachmentKey: options.billingAcceptsAttachmentKey,
  });
  const billing = await orCleanUp(cleanups, () => startBilling(cleanups, billingKeys, options.billingFaults));
  const vendors = await orCleanUp(cleanups, () =>
    startVendorEmulators(cleanups, specs, secrets, vendorSecrets, dataSize(options)),
  );
  const secretEnv = secretEnvOf(secrets, vendorSecrets, specs, { adminToken: !!options.service, companyKeys });
  const rawWith = (variant: ConfigVariant = {}) =>
    rawHarnessConfig({
      ...options,
      billingUrl: billing.url,
      prefix,
      vendors,
      http: options.service ? { queueUi: options.service.queueUi ?? true } : undefined,
      billing: { ...options.billing, ...variant.billing },
      connectionBilling: variant.connectionBilling,
    });
  const configWith = (variant: ConfigVariant = {}): AppConfig =>
    parseConfig(rawWith(variant), secretEnv, validateSettings, `${options.name} config`);
  const config = configWith();
  const { rt, service, lines } = await orCleanUp(cleanups, async () => {
    if (!options.service) return { rt: await startRuntime(cleanups, config, redisUrl), lines: [] as string[] };
    const s = await startTestService(cleanups, config, options.service);
    return { rt: s.service.rt, service: s.service, lines: s.lines };
  });
  const workers = harnessWorkers(cleanups, { prefix, redisUrl });
  return harnessHandle({
    ...{ options, specs, vendors, billing, prefix, secrets, keys, config, rawConfig: rawWith(), configWith },
    ...{ secretEnv, redisUrl, redis, cleanups, rt, service, lines, workers },
  });
}

/** Invoices and customers per emulator: the preset's defaults unless the test says. */
function dataSize(o: HarnessOptions): DataSize {
  const two = o.companies === 'two';
  const invoices = o.invoices ?? (two ? 30 : 50);
  const customers =
    o.customers ?? (two ? Math.max(5, Math.ceil(invoices / 5)) : Math.max(5, Math.min(60, Math.ceil(invoices / 10))));
  return { invoices, customers };
}

interface HarnessParts {
  options: HarnessOptions;
  specs: ConnectionSpec[];
  vendors: StartedVendor[];
  billing: BillingEmulator;
  prefix: string;
  secrets: Secrets;
  keys: CompanyKeys;
  config: AppConfig;
  rawConfig: ReturnType<typeof rawHarnessConfig>;
  configWith(variant?: ConfigVariant): AppConfig;
  secretEnv: Record<string, string>;
  redisUrl: string;
  redis: Redis;
  cleanups: Cleanups;
  rt: Runtime;
  service?: Service;
  lines: string[];
  workers: HarnessWorkers;
}

/** What a test holds: the parts, and the waits and reads it drives them with. */
function harnessHandle(p: HarnessParts) {
  const { billing: b, rt, specs, vendors, workers, cleanups } = p;
  const vendorOf = (connectionId: string): StartedVendor => {
    const v = vendors.find((x) => x.spec.id === connectionId);
    if (!v) throw new Error(`no connection ${connectionId} in this harness`);
    return v;
  };
  const zohos = vendors.filter((v) => v.spec.system === 'zoho-books').map((v) => v.emulator as ZohoEmulator);
  const needService = (): Service => {
    if (!p.service) throw new Error('this harness runs no service: startHarness({ service: {} }) starts one');
    return p.service;
  };
  const first = { rt, billing: b, connectionId: specs[0]!.id, company: specs[0]!.company, origin: specs[0]!.origin };
  let backfillEvents: Promise<QueueEvents> | undefined;
  const configFile = configFileOf(cleanups, p.options.name, p.rawConfig);

  const harness = {
    billing: b,
    /** The first Zoho Books connection's emulator. */
    get zoho(): ZohoEmulator {
      if (!zohos[0]) throw new Error('this harness has no Zoho Books connection');
      return zohos[0];
    },
    /** The second Zoho Books connection's (`secondConnection`, or GLOBEX's in the two-companies shape). */
    zoho2: zohos[1],
    /** A Zoho Books connection's emulator, by connection id. */
    zohoOf: (connectionId: string): ZohoEmulator => harness.emulatorOf(connectionId, 'zoho-books'),
    /** A connection's emulator, by connection id, typed by its vendor (a connection of another vendor throws). */
    emulatorOf<S extends VendorSystem>(connectionId: string, system: S): VendorEmulators[S] {
      const v = vendorOf(connectionId);
      if (v.spec.system !== system) throw new Error(`connection ${connectionId} is ${v.spec.system}, not ${system}`);
      return v.emulator as VendorEmulators[S];
    },
    /** Every connection with its defaults filled (id, system, company, origin, seed), in order. */
    connections: specs,
    prefix: p.prefix,
    secrets: p.secrets,
    /** The two-companies shape's billing keys (acme's are `secrets`' billing keys). */
    keys: p.keys,
    config: p.config,
    /** The config as the YAML file holds it (secrets as `${VAR}`), for a test that writes its own variant. */
    rawConfig: p.rawConfig,
    /** The harness's config with a variant (a rotated key, another connection's billing section, ...). */
    configWith: p.configWith,
    /** The runtime the test enqueues and inspects with (the service's, with `service`). */
    rt,
    /** A plain Redis connection for inspection. */
    redis: p.redis,
    /** A runtime (another "process" as far as Redis is concerned) on `cfg` (default: the harness's); closed by close(). */
    newRuntime: (cfg: AppConfig = p.config): Promise<Runtime> => startRuntime(cleanups, cfg, p.redisUrl),
    /** Stops everything in reverse order and drops the prefix. A part that fails to stop (a test closed it already) does not stop the rest. */
    close: () => cleanups.run().catch(() => {}),
    /** The YAML config file (secrets as `${VAR}`, filled by `secretEnv`), for CLI children. */
    configFile,
    secretEnv: p.secretEnv,
    /** The service (with `service`), its HTTP URL, and its captured log lines (JSON, one per entry). */
    get service(): Service {
      return needService();
    },
    get url(): string {
      return needService().httpUrl;
    },
    lines: p.lines,

    /** In-process workers of `roles` on `runtime` (default: the test's runtime); stopped by close(). */
    startWorkers: (roles: readonly Role[], runtime: Runtime = rt): WorkerService => workers.start(runtime, roles),
    /** The real CLI worker in a child process (killed by close()); resolves once it logged "worker started". */
    spawnWorker: async (roles: readonly Role[], env: Record<string, string> = {}): Promise<ChildWorker> =>
      workers.spawn(await configFile(), roles, { ...p.secretEnv, ...env }),
    /** A QueueEvents listener on `queue` (closed by close()), ready before it returns. */
    queueEvents: (queue: string): Promise<QueueEvents> => workers.queueEvents(queue),

    /** Adds a backfill of a connection's whole generated history (default: the first's); the test's runtime enqueues it, workers run it. */
    backfill(opts: { restart?: boolean; connectionId?: string } = {}) {
      const v = vendorOf(opts.connectionId ?? specs[0]!.id);
      const entities = p.config.connections.find((c) => c.id === v.spec.id)!.entities;
      const range = vendorProfile(v.spec.system).history(v.emulator);
      return addBackfill(rt, { connectionId: v.spec.id, entities, ...range }, { restart: opts.restart });
    },
    /** Waits as `erp-sync backfill` does (see queue-waits.ts). */
    waitForBackfill: (runId: string, timeoutMs = 60_000) =>
      waitForBackfill(
        rt,
        runId,
        () => (backfillEvents ??= workers.queueEvents(QUEUES.backfill)),
        workers.inProcess,
        timeoutMs,
      ),
    /** Job counts by queue and state, for failure messages. */
    describeQueues: () => describeQueues(rt),
    /** Nothing waiting, active or delayed in the pull and upsert queues (see queue-waits.ts). */
    drained: () => drained(rt, workers.inProcess),
    waitForDrain: (timeoutMs = 60_000) => waitForDrain(rt, workers.inProcess, timeoutMs),

    /** The service's /metrics text. */
    async metrics(): Promise<string> {
      return (await fetch(`${needService().httpUrl}/metrics`)).text();
    },
    /** Resolves once the service completed an incremental pull of `entity` (its own gauge says so). */
    async waitForPull(entity = 'invoices', timeoutMs = 30_000) {
      const gauge = `erpsync_last_success_timestamp_seconds{connection="${specs[0]!.id}",entity="${entity}"}`;
      await until(`a completed pull of ${entity}`, async () => (await harness.metrics()).includes(gauge), timeoutMs);
    },
    ...billingInspection(b, rt, first),
    /**
     * Voids in the company's billing the invoices the Zoho connection's source holds as void (what a
     * person does; no sync can); default: the first connection. Returns how many; a refused void throws.
     */
    mirrorSourceVoids: (
      c: { connection: string; company: string } = { connection: first.connectionId, company: first.company },
    ) => mirrorZohoVoids(rt, b, harness.zohoOf(c.connection), c),
  };
  return harness;
}
