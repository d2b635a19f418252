import type { ZohoEmulator } from '../../sandbox/zoho-books/index.js';
import { ZOHO_SANDBOX_DEFAULTS } from '../../sandbox/zoho-books/index.js';
import { TEST_REDIS_URL } from './redis.js';

/** One company (the default shape): its connection, billing company and origin. */
export const CONNECTION = 'zoho-rel';
export const COMPANY = 'rel';
export const ORIGIN = 'EXTERNAL_SYSTEM_A';
/** The second connection of the one-company shape (`secondConnection`): another Zoho organisation, same company. */
export const SECOND_CONNECTION = 'zoho-rel-two';
export const SECOND_ORIGIN = 'EXTERNAL_SYSTEM_B';
/** The two-companies shape: each connection reads its own Zoho organisation and writes to its own billing company. */
export const ACME = { connection: 'zoho-acme', company: 'acme', origin: 'EXTERNAL_SYSTEM_A' } as const;
export const GLOBEX = { connection: 'zoho-globex', company: 'globex', origin: 'EXTERNAL_SYSTEM_B' } as const;
/** The range the Zoho generator fills (its default): a backfill of it reads every document. */
export const HISTORY = { from: '2025-01-01', to: '2025-12-31' } as const;
export const UPSERT_PATH = '/external/invoice/upsert';

/** A connection of the harness: which Zoho emulator it reads (seed, organisation) and where it writes. */
export interface ConnectionSpec {
  id: string;
  company: string;
  origin: string;
  seed: number;
  organizationId?: string;
  /** The connection's own `billing` section (its own keys); unset: the default `billing` keys. */
  billing?: Record<string, unknown>;
}

/** The connections of a shape: one company (one connection, or two on one company), or two companies. */
export function connectionSpecs(companies: 'one' | 'two', secondConnection: boolean): ConnectionSpec[] {
  if (companies === 'two')
    return [
      { id: ACME.connection, company: ACME.company, origin: ACME.origin, seed: 5, organizationId: '60010000001' },
      {
        id: GLOBEX.connection,
        company: GLOBEX.company,
        origin: GLOBEX.origin,
        seed: 9,
        organizationId: '60010000002',
        // Globex's own keys, its company named; acme's connection uses the default keys (company unnamed).
        billing: {
          apiKey: '${GLOBEX_KEY}',
          attachmentKey: '${GLOBEX_ATTACH}',
          baseCurrency: 'INR',
          company: GLOBEX.company,
        },
      },
    ];
  const first = { id: CONNECTION, company: COMPANY, origin: ORIGIN, seed: 5 };
  return secondConnection
    ? [first, { id: SECOND_CONNECTION, company: COMPANY, origin: SECOND_ORIGIN, seed: 6 }]
    : [first];
}

export interface RawConfigInput {
  billingUrl: string;
  prefix: string;
  redisUrl?: string;
  specs: ConnectionSpec[];
  /** The Zoho emulator of each spec, in order. */
  zoho: ZohoEmulator[];
  withoutAttachmentKey?: boolean;
  /** With the real service: its HTTP server on a free port, the queue UI behind `${REL_ADMIN_TOKEN}`. */
  http?: { queueUi: boolean };
  syncDrafts?: boolean;
  everySeconds?: number;
  settleDelaySeconds?: number;
  billing?: Record<string, unknown>;
  sync?: Record<string, unknown>;
  reconcile?: Record<string, unknown>;
  rateBudget?: Record<string, unknown>;
  settings?: Record<string, unknown>;
  extraConnections?: Array<Record<string, unknown>>;
  /** Replaces connections' `billing` sections, by connection id. */
  connectionBilling?: Record<string, Record<string, unknown>>;
}

/**
 * The config as the YAML file holds it: secrets are `${VAR}` references (filled from the harness's
 * `secretEnv`). Timings are small so a test takes seconds: BullMQ backoff 100 ms, no settle delay, a 5 s
 * lookback, job locks of 5 s checked every second (a killed worker's jobs come back within ~7 s instead
 * of ~60 s), schedulers hourly (a test drives its own pulls), and a vendor budget no test reaches unless
 * it asks for one.
 */
export function rawHarnessConfig(i: RawConfigInput) {
  const { rateLimit, ...billing } = i.billing ?? {};
  const connections = configuredConnections(i);
  return {
    billing: {
      url: i.billingUrl,
      apiKey: '${REL_BILLING_API_KEY}',
      ...(i.withoutAttachmentKey ? {} : { attachmentKey: '${REL_BILLING_ATTACHMENT_KEY}' }),
      baseCurrency: 'INR',
      // The billing rate limit (the upsert queue's BullMQ limiter) is far above what a test sends.
      rateLimit: { max: 5000, durationMs: 1000, ...(rateLimit as object | undefined) },
      timeoutMs: 10_000,
      ...billing,
    },
    redis: { url: i.redisUrl ?? TEST_REDIS_URL, prefix: i.prefix },
    http: i.http
      ? { host: '127.0.0.1', port: 0, adminToken: i.http.queueUi ? '${REL_ADMIN_TOKEN}' : '${REL_NO_TOKEN:-}' }
      : { host: '127.0.0.1' },
    sync: {
      upsertConcurrency: 8,
      pullConcurrency: 4,
      attempts: 8,
      backoffMs: 100,
      backlogHighWater: 5000,
      graceSeconds: 10,
      lockDurationMs: 5000,
      stalledIntervalMs: 1000,
      ...i.sync,
    },
    reconcile: { windowDays: 0, ...i.reconcile },
    connections: [...connections, ...((i.extraConnections ?? []) as unknown as typeof connections)],
  };
}

function configuredConnections(i: RawConfigInput) {
  return i.specs.map((spec, n) => {
    const z = i.zoho[n]!;
    const own = i.connectionBilling?.[spec.id] ?? spec.billing;
    return {
      id: spec.id,
      system: 'zoho-books',
      originSource: spec.origin,
      entities: ['customers', 'invoices'],
      schedule: { everySeconds: i.everySeconds ?? 3600 },
      lookbackSeconds: 5,
      settleDelaySeconds: i.settleDelaySeconds ?? 0,
      // The suite's counts take every generated invoice, drafts too; a test of drafts asks for false.
      syncDrafts: i.syncDrafts ?? true,
      rateBudget: { perMinute: 1_000_000, concurrency: 8, ...i.rateBudget },
      settings: {
        organizationId: z.organizationId,
        clientId: ZOHO_SANDBOX_DEFAULTS.clientId,
        clientSecret: '${REL_ZOHO_CLIENT_SECRET}',
        refreshToken: '${REL_ZOHO_REFRESH_TOKEN}',
        baseUrl: z.apiBase,
        accountsUrl: z.url,
        dailyCallLimit: 0,
        lookupsCacheSeconds: 0,
        ...i.settings,
      },
      ...(own ? { billing: own } : {}),
    };
  });
}
