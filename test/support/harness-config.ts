import type { StartedVendor } from './harness-emulators.js';
import { credentialRefs } from './harness-secrets.js';
import { TEST_REDIS_URL } from './redis.js';
import { vendorProfile } from './vendors/registry.js';

export * from './harness-connections.js';
/** The range the Zoho generator fills (its default): a backfill of it reads every document. */
export const HISTORY = { from: '2025-01-01', to: '2025-12-31' } as const;
export const UPSERT_PATH = '/external/invoice/upsert';

export interface RawConfigInput {
  billingUrl: string;
  prefix: string;
  redisUrl?: string;
  /** Each connection with its running emulator, in order. */
  vendors: readonly StartedVendor[];
  withoutAttachmentKey?: boolean;
  /** With the real service: its HTTP server on a free port, the queue UI behind `${REL_ADMIN_TOKEN}`. */
  http?: { queueUi: boolean };
  /** More keys of the `http` section (e.g. `publicUrl`, `documentLinkKey`). */
  httpSettings?: Record<string, unknown>;
  syncDrafts?: boolean;
  everySeconds?: number;
  settleDelaySeconds?: number;
  billing?: Record<string, unknown>;
  sync?: Record<string, unknown>;
  reconcile?: Record<string, unknown>;
  /** The `webhooks` section (the receiver), when a test wants one. */
  webhooks?: Record<string, unknown>;
  rateBudget?: Record<string, unknown>;
  /** Overrides of every connection's settings (a connection's own `settings` win). */
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
  const connections = i.vendors.map((v) => connectionEntry(v, i));
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
    http: {
      ...(i.http
        ? { host: '127.0.0.1', port: 0, adminToken: i.http.queueUi ? '${REL_ADMIN_TOKEN}' : '${REL_NO_TOKEN:-}' }
        : { host: '127.0.0.1' }),
      ...i.httpSettings,
    },
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
    ...(i.webhooks ? { webhooks: i.webhooks } : {}),
    connections: [...connections, ...((i.extraConnections ?? []) as unknown as typeof connections)],
  };
}

/** One connection's raw entry: its vendor's settings for its emulator, the harness's timings and budget. */
function connectionEntry({ spec, emulator }: StartedVendor, i: RawConfigInput) {
  const profile = vendorProfile(spec.system);
  const own = i.connectionBilling?.[spec.id] ?? spec.billing;
  return {
    id: spec.id,
    system: spec.system,
    originSource: spec.origin,
    entities: [...(spec.entities ?? ['customers', 'invoices'])],
    schedule: { everySeconds: i.everySeconds ?? 3600 },
    lookbackSeconds: 5,
    settleDelaySeconds: i.settleDelaySeconds ?? 0,
    // The suite's counts take every generated invoice, drafts too; a test of drafts asks for false.
    syncDrafts: i.syncDrafts ?? true,
    rateBudget: { perMinute: 1_000_000, concurrency: 8, ...profile.rateBudget, ...i.rateBudget },
    settings: {
      ...profile.settings(emulator, credentialRefs(spec.system)),
      ...i.settings,
      ...spec.settings,
    },
    ...(own ? { billing: own } : {}),
    ...spec.extra,
  };
}
