import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { validateSettings } from '../../connectors/registry.js';
import { createRuntime } from '../../app/create-runtime.js';
import type { Runtime } from '../../jobs/runtime.js';
import { type Role, startWorkers, type WorkerService } from '../../app/worker-service.js';
import { type AppConfig, parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { startBillingEmulator, type BillingEmulator } from '../../sandbox/billing/billing-emulator.js';
import type { StoredInvoice } from '../../sandbox/billing/billing-store.js';
import { startZohoEmulator, ZOHO_SANDBOX_DEFAULTS, type ZohoEmulator } from '../../sandbox/zoho-books/index.js';
import { connect, dropPrefix, TEST_REDIS_URL } from './redis.js';

/** The two connections: each reads its own Zoho organisation and writes to its own billing company. */
export const ACME = { connection: 'zoho-acme', company: 'acme', origin: 'EXTERNAL_SYSTEM_A' } as const;
export const GLOBEX = { connection: 'zoho-globex', company: 'globex', origin: 'EXTERNAL_SYSTEM_B' } as const;

export interface TwoCompaniesOptions {
  /** Names the Redis prefix. */
  name: string;
  /** Invoices per Zoho organisation (customers: one per five, at least 5). @defaultValue 30 */
  invoices?: number;
  /** Overrides of `billing.rateLimit`. */
  rateLimit?: Record<string, unknown>;
  /** Overrides of the `sync` section. */
  sync?: Record<string, unknown>;
}

/**
 * One billing emulator serving two companies (each with two service keys, to rotate one, and an
 * attachment key), two Zoho emulators (different seeds and organisations), and a config in which
 * `zoho-acme` uses the default `billing` keys (acme's, unnamed: the company is the key's fingerprint)
 * and `zoho-globex` its own (globex's, named `globex`). Keys are random per run and passed as `${VAR}`.
 */
export async function startTwoCompanies(options: TwoCompaniesOptions) {
  const suffix = randomBytes(4).toString('hex');
  const keys = {
    acme: `tc-acme-key-${suffix}`,
    acmeRotated: `tc-acme-key2-${suffix}`,
    acmeAttach: `tc-acme-attach-${suffix}`,
    globex: `tc-globex-key-${suffix}`,
    globexRotated: `tc-globex-key2-${suffix}`,
    globexAttach: `tc-globex-attach-${suffix}`,
  };
  const prefix = `test-${options.name}-${suffix}`;
  const redis = connect();
  const cleanups: Array<() => Promise<unknown>> = [];
  const emulators: Array<{ close(): Promise<void> }> = [];
  const close = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
    for (const e of emulators) await e.close().catch(() => {});
    await dropPrefix(redis, prefix);
    await redis.quit();
  };
  let billing: BillingEmulator;
  let zohoAcme: ZohoEmulator;
  let zohoGlobex: ZohoEmulator;
  const records = options.invoices ?? 30;
  const zoho = (seed: number, organizationId: string) =>
    startZohoEmulator({
      port: 0,
      seed,
      organizationId,
      records,
      customers: Math.max(5, Math.ceil(records / 5)),
      creditNotes: 0,
      ratePerMinute: 0,
      dailyLimit: 0,
    });
  try {
    billing = await startBillingEmulator({
      port: 0,
      keys: [
        { key: keys.acme, companyId: ACME.company },
        { key: keys.acmeRotated, companyId: ACME.company },
        { key: keys.globex, companyId: GLOBEX.company },
        { key: keys.globexRotated, companyId: GLOBEX.company },
      ],
      attachmentKeys: [
        { key: keys.acmeAttach, companyId: ACME.company },
        { key: keys.globexAttach, companyId: GLOBEX.company },
      ],
    });
    emulators.push(billing);
    zohoAcme = await zoho(5, '60010000001');
    emulators.push(zohoAcme);
    zohoGlobex = await zoho(9, '60010000002');
    emulators.push(zohoGlobex);
  } catch (e) {
    await close();
    throw e;
  }
  const env = {
    ACME_KEY: keys.acme,
    ACME_ATTACH: keys.acmeAttach,
    GLOBEX_KEY: keys.globex,
    GLOBEX_ATTACH: keys.globexAttach,
    ACME_KEY_ROTATED: keys.acmeRotated,
    GLOBEX_KEY_ROTATED: keys.globexRotated,
  };
  const connection = (c: typeof ACME | typeof GLOBEX, z: ZohoEmulator, billingOverride?: Record<string, unknown>) => ({
    id: c.connection,
    system: 'zoho-books',
    originSource: c.origin,
    entities: ['customers', 'invoices'],
    schedule: { everySeconds: 3600 },
    lookbackSeconds: 5,
    settleDelaySeconds: 0,
    // Counts take every generated invoice, drafts too.
    syncDrafts: true,
    rateBudget: { perMinute: 1_000_000, concurrency: 8 },
    settings: {
      organizationId: z.organizationId,
      clientId: ZOHO_SANDBOX_DEFAULTS.clientId,
      clientSecret: ZOHO_SANDBOX_DEFAULTS.clientSecret,
      refreshToken: ZOHO_SANDBOX_DEFAULTS.refreshToken,
      baseUrl: z.apiBase,
      accountsUrl: z.url,
      dailyCallLimit: 0,
      lookupsCacheSeconds: 0,
    },
    ...(billingOverride ? { billing: billingOverride } : {}),
  });

  /** The config; `defaultApiKey` replaces `billing.apiKey`, `acme`/`globex` the connections' billing sections (globex's default: its own key, named). */
  const configWith = (
    over: { defaultApiKey?: string; acme?: Record<string, unknown>; globex?: Record<string, unknown> } = {},
  ): AppConfig =>
    parseConfig(
      {
        billing: {
          url: billing.url,
          apiKey: over.defaultApiKey ?? '${ACME_KEY}',
          attachmentKey: '${ACME_ATTACH}',
          baseCurrency: 'INR',
          rateLimit: { max: 5000, durationMs: 1000, ...options.rateLimit },
          timeoutMs: 10_000,
        },
        redis: { url: TEST_REDIS_URL, prefix },
        http: { host: '127.0.0.1' },
        sync: {
          upsertConcurrency: 8,
          attempts: 8,
          backoffMs: 100,
          graceSeconds: 10,
          lockDurationMs: 5000,
          stalledIntervalMs: 1000,
          ...options.sync,
        },
        reconcile: { windowDays: 0 },
        connections: [
          connection(ACME, zohoAcme, over.acme),
          connection(
            GLOBEX,
            zohoGlobex,
            over.globex ?? {
              apiKey: '${GLOBEX_KEY}',
              attachmentKey: '${GLOBEX_ATTACH}',
              baseCurrency: 'INR',
              company: 'globex',
            },
          ),
        ],
      },
      env,
      validateSettings,
      `${options.name} config`,
    );

  const logger = (): Logger => createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent', format: 'json' });
  /** A runtime on a config (default: the one above), closed by close(). */
  const newRuntime = async (config: AppConfig = configWith()): Promise<Runtime> => {
    const rt = await createRuntime(config, TEST_REDIS_URL, logger());
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

  return {
    billing: billing!,
    zoho: { [ACME.connection]: zohoAcme!, [GLOBEX.connection]: zohoGlobex! } as Record<string, ZohoEmulator>,
    keys,
    prefix,
    redis,
    rt,
    configWith,
    newRuntime,
    close,
    /** In-process workers on a runtime (default: the first); stopped by close(). */
    startWorkers(roles: readonly Role[], runtime: Runtime = rt): WorkerService {
      const w = startWorkers(runtime, roles);
      cleanups.push(() => w.stop(2_000));
      return w;
    },
    /** A company's invoices in billing, straight from the emulator's store. */
    invoicesOf(company: string): StoredInvoice[] {
      return billing.store.company(company).invoices;
    },
    /** A company's customers' buyer ids in billing. */
    buyersOf(company: string): string[] {
      return billing.store.company(company).customers.map((c) => c.details.buyerId);
    },
    /** Voids in a company's billing the invoices the connection's source holds as void (what a person does; no sync can). */
    async mirrorSourceVoids(c: typeof ACME | typeof GLOBEX): Promise<number> {
      let n = 0;
      const source = c === ACME ? zohoAcme : zohoGlobex;
      for (const inv of source.store.invoices().filter((i) => i.status === 'void')) {
        const e = await rt.ledger.get(c.connection, 'invoices', inv.invoice_id);
        if (!e) continue;
        const res = await fetch(
          `${billing.url}/__admin/invoices/${encodeURIComponent(e.billingId)}/void?company=${c.company}`,
          { method: 'POST' },
        );
        if (!res.ok) throw new Error(`void ${e.billingId} in ${c.company}: ${res.status} ${await res.text()}`);
        n++;
      }
      return n;
    },
  };
}
export type TwoCompanies = Awaited<ReturnType<typeof startTwoCompanies>>;
