import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { OriginSource } from './billing/schemas/index.js';
import { billingTargetIssues } from './billing/billing-target.js';
import { fieldMappingIssues } from './config-field-mappings.js';
import type { ConfigIssue } from './config-issue.js';
import { Entity, System } from './connector/entities.js';
import { ConfigError } from './errors/index.js';
import { isAddressOrRange } from './http/client-address.js';

export type { ConfigIssue } from './config-issue.js';

/**
 * The one config schema. A YAML file, `${VAR}` / `${VAR:-default}` interpolated from the environment
 * (secrets stay out of the file), parsed once, deep-frozen. Every error is reported with its path.
 * Connector settings are validated by each connector's own schema (connectors/registry.ts).
 */

const Seconds = (def: number) => z.number().int().min(0).default(def);
/** `${VAR:-}` interpolates to '': an empty optional setting means "not set". */
const optional = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** True if this runtime's Intl knows the time zone (what the reconcile job formats dates with). */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat(undefined, { timeZone });
    return true;
  } catch {
    return false;
  }
}
/** An IANA time zone name, checked at config time rather than as a RangeError in the job that uses it. */
const TimeZone = (field: string) =>
  z.string().refine(isTimeZone, `not a time zone: ${field} takes an IANA time zone name, e.g. "Asia/Kolkata" or "UTC"`);

const CurrencyCode = z.string().regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code');
/** A billing company's name, for state and metrics (never a key): like a connection id. */
const CompanyName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'use 1–40 lowercase letters, digits or dashes')
  .refine((s) => !s.startsWith('key-'), 'names starting with "key-" are kept for key fingerprints');

/**
 * The billing company a connection writes to, where it is not the default (`billing`): the service ties
 * every request to the company that owns the key. Checked across connections in src/billing/billing-target.ts.
 */
export const ConnectionBillingConfig = z.strictObject({
  apiKey: optional(z.string().min(1)),
  /** Not inherited from `billing` when `apiKey` is another company's: that company's attachment key, or none. */
  attachmentKey: optional(z.string().min(1)),
  /** Required with another company's `apiKey`; otherwise the default company's. */
  baseCurrency: CurrencyCode.optional(),
  company: CompanyName.optional(),
  /** The company's own time zone, where it is not `billing.timeZone`'s (another company's books). */
  timeZone: TimeZone('connections[].billing.timeZone').optional(),
  url: z.never({ error: 'one billing service has one url: set billing.url' }).optional(),
});

/**
 * Review before write (`connections[].review`): which records wait for a person before billing gets them.
 * `none`: none; `first-sync`: every record of a new connection until its first sync is approved as a whole;
 * `all`: every record; or rules, any of which holds a record.
 */
export const ReviewRules = z
  .strictObject({
    /** A document whose total is at or above this amount in its currency (decimal strings, e.g. `{ INR: "500000" }`). */
    totalAtLeast: z
      .record(CurrencyCode, z.string().regex(/^\d+(\.\d+)?$/, 'a decimal amount, e.g. "50000.00"'))
      .optional(),
    /** A record whose buyer this connection has not created or found in billing yet (or a customer never written). */
    newCustomer: z.boolean().optional(),
    /** A document in another currency than the billing company's base currency. */
    foreignCurrency: z.boolean().optional(),
    /** Every credit note. */
    creditNotes: z.boolean().optional(),
    /** An invoice whose total changed by more than this share (0.2 = 20 %) since its last write. */
    totalChangedBy: z.number().positive().optional(),
  })
  .refine((r) => Object.values(r).some((v) => v !== undefined && v !== false), 'give at least one rule');
export const ReviewConfig = z.union([z.enum(['none', 'first-sync', 'all']), z.strictObject({ rules: ReviewRules })]);
export type ReviewConfig = z.infer<typeof ReviewConfig>;

/** What an API token may do: `viewer` reads, `operator` also acts (pause, resume, sync, replay), `admin` everything. */
export const ApiRole = z.enum(['viewer', 'operator', 'admin']);
export type ApiRole = z.infer<typeof ApiRole>;

/**
 * A token of the HTTP API or the queue UI must be long enough that guessing it online is hopeless, also
 * at the sign-in limit (10 wrong tokens a minute per address): 24 characters, as 32 random bytes in
 * base64 (`openssl rand -base64 32`, 44 characters) easily are.
 */
const TOKEN_LENGTH_MESSAGE = 'use at least 24 random characters (openssl rand -base64 32)';

/**
 * One named token of the HTTP API. The name is what logs and the audit log show (never the token, which
 * comes from the environment: `token: ${VAR}`). `companies` limits it to the connections writing to those
 * billing companies (`billing.company`, `connections[].billing.company`).
 */
export const ApiToken = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/, 'use 1–64 letters, digits, dots, dashes or @'),
  token: z.string().min(24, TOKEN_LENGTH_MESSAGE),
  role: ApiRole,
  /** Company names as `status` shows them: the configured name, or `key-<fingerprint>` for an unnamed key. */
  companies: z
    .array(z.string().regex(/^[a-z0-9][a-z0-9-]{0,59}$/, 'a billing company name: lowercase letters, digits or dashes'))
    .min(1)
    .optional(),
  /**
   * When the token stops working (refused 401 from then on), an ISO 8601 date-time with its offset
   * (`2027-03-31T18:00:00+05:30`, or `Z`). @defaultValue never
   */
  expiresAt: z.iso
    .datetime({ offset: true, message: 'an ISO 8601 date-time with its offset, e.g. 2027-03-31T18:00:00Z' })
    .optional(),
});
export type ApiToken = z.infer<typeof ApiToken>;

/** A key of billing's `tags` / `metaData`: what billing shows and filters by. */
const FieldKey = z
  .string()
  .trim()
  .min(1, 'a key: 1–64 characters')
  .max(64, 'a key: 1–64 characters')
  .refine(
    (k) => !k.includes(':') && !k.includes(','),
    'a key without ":" or "," (billing filters tags as key:value lists)',
  );
const FieldName = z.string().trim().min(1, "the field's name as the vendor shows it");

/**
 * One rule of `connections[].fields` (docs/configuration.md, "Field mapping"): a vendor field of this
 * company, by its name, sent to a key of billing's `tags` or `metaData` instead of its default place.
 * `from` names exactly one of: `customField` (Zoho Books: label or api_name; QuickBooks: Name or
 * DefinitionId), `reportingTag` (Zoho Books: tag_name), `tracking` (Xero: the tracking category's Name).
 */
export const FieldMappingConfig = z.strictObject({
  from: z
    .strictObject({
      customField: FieldName.optional(),
      reportingTag: FieldName.optional(),
      tracking: FieldName.optional(),
    })
    .refine(
      (f) => Object.values(f).filter((v) => v !== undefined).length === 1,
      'name exactly one of customField, reportingTag or tracking',
    ),
  to: z
    .strictObject({ tag: FieldKey.optional(), metaData: FieldKey.optional() })
    .refine((t) => (t.tag === undefined) !== (t.metaData === undefined), 'name exactly one of tag or metaData'),
});
export type FieldMappingConfig = z.infer<typeof FieldMappingConfig>;

export const ConnectionConfig = z
  .strictObject({
    /** Stable id, used in ids, keys and metrics labels: lowercase letters, digits and dashes. */
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'use 1–40 lowercase letters, digits or dashes'),
    system: System,
    /**
     * invoiceOriginSource written on every invoice of this connection: EXTERNAL_SYSTEM_A, B or C, or OTHER
     * for a Tally connection (the three are the other vendors'; docs/configuration.md, "Choosing a Tally
     * connection's originSource").
     */
    originSource: OriginSource.refine((s) => s !== 'SERVICE', 'must be EXTERNAL_SYSTEM_A, B or C'),
    entities: z.array(Entity).min(1).default(['customers', 'invoices', 'credit-notes']),
    schedule: z
      .strictObject({
        everySeconds: z.number().int().min(5).default(300),
        /**
         * The incremental pull's interval while the connection's webhooks are healthy (deliveries accepted,
         * and safety-net pulls not finding changes no delivery announced): the pull is then a safety net.
         * @defaultValue 21600
         */
        withWebhooksEverySeconds: z.number().int().min(5).default(21_600),
        /**
         * Vendors whose deletes leave no trace (Connector.sweepsDeletes: TallyPrime): how often every id is
         * listed and compared with the ledger; 0 turns it off. Other vendors ignore it. Unset: 3600
         * (DELETES_EVERY_SECONDS in app/worker-service.ts).
         */
        deletesEverySeconds: z
          .number()
          .int()
          .refine((s) => s === 0 || s >= 60, 'use 0 (off) or at least 60')
          .optional(),
      })
      .prefault({}),
    /** Overrides the vendor's API base URL (the sandbox, a proxy). */
    baseUrl: z.url().optional(),
    /** Re-read this far behind the checkpoint (cursor edges, clock skew, same-second edits). @defaultValue 600 */
    lookbackSeconds: Seconds(600),
    /** Read only up to now − this (records still settling at the vendor). @defaultValue 5 */
    settleDelaySeconds: Seconds(5),
    /**
     * Send documents the ERP holds as drafts (not issued: not receivables yet) to billing. Off: they are
     * skipped and counted, and each syncs once it is issued. @defaultValue false
     */
    syncDrafts: z.boolean().default(false),
    /**
     * Overrides the connector's vendor budget for this connection (e.g. leave room for other
     * integrations on the same organisation, or a sandbox without limits). Shared by every process.
     */
    rateBudget: z
      .strictObject({
        perMinute: z.number().int().min(1).optional(),
        perDay: z.number().int().min(0).optional(),
        concurrency: z.number().int().min(1).max(64).optional(),
      })
      .optional(),
    /** Connector-specific settings and credentials, validated by the connector. */
    settings: z.record(z.string(), z.unknown()).default({}),
    billing: ConnectionBillingConfig.optional(),
    /**
     * This connection's vendor webhooks (src/webhooks/): the secret deliveries are verified with. Xero: the
     * app's webhook key; QuickBooks: the app's verifier token; Zoho Books: the value of the custom header
     * `X-Erp-Sync-Secret` set on the workflow webhook. Through `${VAR}`, never in the file.
     */
    webhooks: z
      .strictObject({
        // Zoho's is a static header that authenticates a delivery on its own: as strong as a bearer token.
        secret: z.string().min(32, 'use at least 32 characters (a long random value, e.g. `openssl rand -hex 24`)'),
      })
      .optional(),
    /** Review before write: which records wait for a person's approval (docs/configuration.md, "Review before write"). @defaultValue none */
    review: ReviewConfig.default('none'),
    /**
     * This company's own fields sent to billing's tags or metaData (docs/configuration.md, "Field
     * mapping"); checked against the system by fieldMappingIssues. @defaultValue none
     */
    fields: z.array(FieldMappingConfig).max(100).default([]),
  })
  .superRefine((c, ctx) => {
    // OTHER is also what billing gives an invoice sent without an origin: only Tally, which has no origin of
    // its own among the three, may take it.
    if (c.originSource === 'OTHER' && c.system !== 'tally')
      ctx.addIssue({ code: 'custom', path: ['originSource'], message: 'must be EXTERNAL_SYSTEM_A, B or C' });
  });
export type ConnectionConfig = z.infer<typeof ConnectionConfig>;

export const AppConfig = z.strictObject({
  billing: z.strictObject({
    url: z.url(),
    apiKey: z.string().min(1),
    attachmentKey: optional(z.string().min(1)),
    /** The billing company's base currency: exchangeRate is relative to it. */
    baseCurrency: CurrencyCode.default('INR'),
    /** The default company's name for state and metrics; without it, its key's fingerprint. */
    company: CompanyName.optional(),
    /**
     * The billing company's time zone (IANA): the console shows instants in it, naming it beside each
     * table, so a reader anywhere sees the company's clock. Unset: UTC.
     */
    timeZone: TimeZone('billing.timeZone').optional(),
    /**
     * Billing requests allowed per `durationMs`: across every worker for the deployment (`scope:
     * deployment`), or for each billing key (`scope: key`, where the service limits per key), then
     * `totalMax` bounds the upsert queue as a whole (default `max` × the number of keys).
     */
    rateLimit: z
      .strictObject({
        max: z.number().int().min(1).default(50),
        durationMs: z.number().int().min(1).default(1000),
        scope: z.enum(['deployment', 'key']).default('deployment'),
        totalMax: z.number().int().min(1).optional(),
      })
      .refine((r) => r.totalMax === undefined || r.scope === 'key', {
        message: 'totalMax bounds the keys together: only with scope: key',
        path: ['totalMax'],
      })
      .prefault({}),
    timeoutMs: z.number().int().min(100).default(15_000),
    /**
     * Billing outages: after `failuresToPause` consecutive 5xx or network failures the upsert queue
     * pauses (no attempt is used while it waits) and one worker probes billing every `probeEverySeconds`
     * until it answers.
     */
    outage: z
      .strictObject({
        failuresToPause: z.number().int().min(1).default(5),
        probeEverySeconds: z.number().int().min(1).default(5),
      })
      .prefault({}),
  }),
  redis: z
    .strictObject({
      /** Without it: REDIS_URL, else 127.0.0.1:6379 if it answers, else an embedded redis-server. */
      url: optional(z.string()),
      /** Key prefix for queues and state; use a {hash-tag} on Redis Cluster. */
      prefix: z
        .string()
        .regex(/^[^:\s]+$/, 'no colons or spaces')
        .default('erp-sync'),
    })
    .prefault({}),
  http: z
    .strictObject({
      port: z.number().int().min(0).max(65535).default(9464),
      host: z.string().default('0.0.0.0'),
      /** Bearer token for /admin/queues; without it the queue UI is off. Also an admin token of the API (`admin`). */
      adminToken: optional(z.string().min(24, TOKEN_LENGTH_MESSAGE)),
      /**
       * The address people reach this worker's console at (`https://sync.example.com`): an OAuth consent
       * started from the console comes back to `<publicUrl>/console/oauth/callback`, the redirect URI to
       * register with each vendor app. Without it, the console cannot start a consent.
       */
      publicUrl: optional(z.url({ protocol: /^https?$/ })),
      /**
       * The key document links are signed with (src/documents/document-link-token.ts): with `publicUrl`, the
       * QuickBooks and Xero invoices and credit notes synced to billing carry a link to their PDF on this
       * worker (`<publicUrl>/documents/v1/…`). A secret: set it from the environment. Changing it revokes
       * every link given out (docs/operations.md, "Document links"). @defaultValue none (no links)
       */
      documentLinkKey: optional(
        z.string().min(32, 'use at least 32 characters (a long random value, e.g. `openssl rand -base64 32`)'),
      ),
      /**
       * Reverse proxies in front of the worker (addresses or CIDR ranges): from these peers only, the
       * console's sign-in limiter counts the client address X-Forwarded-For names (src/http/client-address.ts);
       * from any other peer, the peer's own address; the queue UI believes X-Forwarded-Proto from these only.
       * @defaultValue none (X-Forwarded-For and X-Forwarded-Proto ignored)
       */
      trustedProxies: z
        .array(z.string().refine(isAddressOrRange, 'expected an IP address or a CIDR range such as 10.0.0.0/8'))
        .default([]),
      /** Named tokens of the HTTP API (/api/v1, docs/api.md): who may read, act, or administer. */
      tokens: z
        .array(ApiToken)
        .default([])
        .superRefine((tokens, ctx) => {
          const seen = { names: new Set<string>(), tokens: new Set<string>() };
          for (const [i, t] of tokens.entries()) {
            if (seen.names.has(t.name))
              ctx.addIssue({ code: 'custom', message: 'names must be unique', path: [i, 'name'] });
            // The message never repeats the token: it is a secret.
            if (seen.tokens.has(t.token))
              ctx.addIssue({ code: 'custom', message: 'each token must be different', path: [i, 'token'] });
            seen.names.add(t.name);
            seen.tokens.add(t.token);
          }
        }),
    })
    .prefault({}),
  sync: z
    .strictObject({
      upsertConcurrency: z.number().int().min(1).max(256).default(16),
      pullConcurrency: z.number().int().min(1).max(32).default(4),
      /** BullMQ attempts per upsert job (exponential backoff with jitter between them). */
      attempts: z.number().int().min(1).max(50).default(8),
      backoffMs: z.number().int().min(10).default(2_000),
      /**
       * Records per upsert job written by a pull (1 = a job per record). A batch pays BullMQ's cost per
       * job once: measured in bench/pipeline.bench.ts (docs/benchmarks.md). The unit of retry and
       * quarantine stays one record: a record that must wait or be retried leaves its batch as a job of
       * its own. 20 measured best (50 did no better). @defaultValue 20
       */
      upsertBatchSize: z.number().int().min(1).max(100).default(20),
      /** A pull waits while the upsert backlog (records waiting or being written) is above this. */
      backlogHighWater: z.number().int().min(100).default(20_000),
      /** Days per backfill window. */
      backfillWindowDays: z.number().int().min(1).max(366).default(30),
      graceSeconds: z.number().int().min(1).default(25),
      /**
       * How long a credit note waits for the invoices it applies to (they may still be queued) before it
       * is quarantined as DEPENDENCY_MISSING. @defaultValue 1800
       */
      dependencyWaitSeconds: z.number().int().min(0).default(1800),
      /**
       * BullMQ lock of an active job, renewed every half of it while the worker lives. A worker that
       * dies (kill -9, OOM, lost host) leaves its jobs active; any other worker takes them back once the
       * lock has expired, i.e. after about lockDurationMs + stalledIntervalMs. Keep it well above the
       * worst event-loop stall, or live jobs are taken back too (at-least-once, but wasted work).
       * @defaultValue 30000
       */
      lockDurationMs: z.number().int().min(1000).default(30_000),
      /** How often each worker looks for stalled jobs (active jobs whose lock expired). @defaultValue 30000 */
      stalledIntervalMs: z.number().int().min(100).default(30_000),
      /**
       * How often one job may be taken back from a dead worker before BullMQ fails it (then it is
       * quarantined as STALLED). BullMQ's default, 1, fails a job the second time its worker dies: one
       * crash loop, an OOM kill and a lost node are ordinary events, so 5 keeps records moving through
       * them while a record that itself kills its worker every time still ends in quarantine. @defaultValue 5
       */
      maxStalledCount: z.number().int().min(1).max(100).default(5),
      /**
       * The in-flight sweep: how often it runs, and how old an in-flight entry must be before the sweep
       * looks at its job (a younger one may be between its tracking and its enqueue). @defaultValue 60, 120
       */
      sweepEverySeconds: z.number().int().min(5).default(60),
      sweepGraceSeconds: z.number().int().min(0).default(120),
      /**
       * A vendor outage: a pull whose vendor fails transiently (5xx, timeouts, refused connections) on
       * two attempts in a row waits this long and tries again, without using attempts, until the vendor
       * answers. @defaultValue 30
       */
      vendorOutageRetrySeconds: z.number().int().min(1).default(30),
      /**
       * Fair scheduling. A job waits in place for a vendor quota slot at most this long; a longer wait puts
       * it back in the queue until its slot (no attempt used) so the worker slot serves another connection.
       * @defaultValue 1000
       */
      quotaWaitInPlaceMs: z.number().int().min(0).default(1_000),
      /**
       * Jobs of one connection (pulls, backfill windows, reconciliations) running at once across every
       * worker: one connection's backfill cannot fill the workers while others wait. @defaultValue 2
       */
      maxJobsPerConnection: z.number().int().min(1).max(64).default(2),
      /**
       * A job of a paused connection is held (delayed) until the connection is resumed, which releases it
       * at once; as a safety net it looks again on its own after max(this, how long the pause has lasted).
       * @defaultValue 60
       */
      pausedRecheckSeconds: z.number().int().min(1).default(60),
      /**
       * Runs kept per connection and stream for `erp-sync runs` (each pull, backfill window and
       * reconciliation; the oldest dropped as a new one is written). @defaultValue 50
       */
      runHistory: z.number().int().min(1).max(1000).default(50),
    })
    .prefault({}),
  reconcile: z
    .strictObject({
      /** Daily reconcile of the previous N days per connection; 0 turns it off. */
      windowDays: z.number().int().min(0).default(2),
      everySeconds: z.number().int().min(60).default(86_400),
      /** Time zone of the date part of UPDATED_AT windows. */
      timeZone: TimeZone('timeZone').default('UTC'),
      /** The scheduled reconcile also walks the whole invoice-date history, a slice per run, once every N days; 0 turns it off. */
      cycleDays: z.number().int().min(0).default(30),
      /** Billing's counts per invoice-date window against the ledger's, at every scheduled run. */
      countInvariant: z
        .strictObject({
          enabled: z.boolean().default(true),
          /** A window this small (records on either side) is listed and compared id by id instead of halved again. */
          leafRecords: z.number().int().min(1).max(10_000).default(500),
        })
        .prefault({}),
    })
    .prefault({}),
  /** Each record's history of outcomes (`erp-sync explain`, `erp-sync history`): how much is kept. */
  history: z
    .strictObject({
      /** The last N outcomes per record (entry N + 1 drops the oldest). @defaultValue 10 */
      perRecord: z.number().int().min(1).max(1000).default(10),
      /** None older than this many days; a record's history expires this long after its last outcome. @defaultValue 90 */
      days: z.number().int().min(1).max(3650).default(90),
    })
    .prefault({}),
  /** Connections created through the API or the command line (docs/configuration.md, "Connections stored in Redis"). */
  storedConnections: z
    .strictObject({
      /** A removed connection's state is kept this many days (reconciliation, history), then purged. @defaultValue 30 */
      retentionDays: z.number().int().min(0).max(3650).default(30),
    })
    .prefault({}),
  /** The audit log of the API and the console (docs/api.md, "The audit log"): how long it keeps what was done. */
  audit: z
    .strictObject({
      /** Entries older than this many days are dropped as new ones are written (never by a count). @defaultValue 400 */
      retentionDays: z.number().int().min(1).max(3650).default(400),
    })
    .prefault({}),
  /**
   * The webhook listener (src/webhooks/): its own port, never the metrics port. Without this block no
   * listener starts and every connection is polled on `schedule.everySeconds`.
   */
  webhooks: z
    .strictObject({
      port: z.number().int().min(0).max(65535).default(9465),
      host: z.string().default('0.0.0.0'),
      /** A delivery larger than this is refused (413) before it is read further. @defaultValue 1048576 */
      maxBodyBytes: z
        .number()
        .int()
        .min(1024)
        .max(64 * 1024 * 1024)
        .default(1024 * 1024),
      /** Events of one connection and entity arriving within this window become one read by id. @defaultValue 1000 */
      coalesceMs: z.number().int().min(0).max(60_000).default(1000),
    })
    .optional(),
  connections: z.array(ConnectionConfig).min(1, 'at least one connection'),
});
export type AppConfig = z.infer<typeof AppConfig>;

/** The webhook listener is its own server: never on the metrics port (a scrape would reach the vendors' door). */
function webhookIssues(config: AppConfig): ConfigIssue[] {
  const w = config.webhooks;
  if (!w || w.port === 0 || w.port !== config.http.port) return [];
  return [
    {
      path: ['webhooks', 'port'],
      message: `must differ from http.port (${config.http.port}): the listener has its own port`,
    },
  ];
}

/** zod issues as config issues; an unknown key is reported at its own path ("billing.apiKye: unknown key"). */
export function configIssues(error: z.ZodError): ConfigIssue[] {
  return error.issues.flatMap((issue): ConfigIssue[] => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((k) => ({ path: [...path, k], message: 'unknown key' }));
    return [
      {
        path,
        message: issue.message,
        code: issue.code,
        ...(issue.code === 'invalid_type' ? { expected: String(issue.expected) } : {}),
      },
    ];
  });
}

const formatIssue = (i: ConfigIssue): string => `${i.path.join('.') || '(root)'}: ${i.message}`;
const pathKey = (path: readonly string[]): string => JSON.stringify(path);

/** A well-formed reference at one position: `${NAME}` or `${NAME:-default}`. */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/y;
const MALFORMED = 'expected ${NAME} with NAME = letters, digits, _; not starting with a digit';

/** What interpolation found: its errors (with their paths) and which strings held references. */
export interface Interpolation {
  issues: ConfigIssue[];
  /** By path: the value was exactly one reference (`whole`, then `name` is its variable) or contained some. */
  references: Map<string, { whole: boolean; name: string }>;
}

/**
 * Replaces `${VAR}` / `${VAR:-default}` in every string of the parsed YAML (not in the raw text: no YAML
 * injection). Values of variables are inserted as they are, never scanned again. An unset variable
 * without default, or a `${` that does not start a well-formed reference, is an issue at the string's path;
 * issues name the variable or quote the config's own text, never a variable's value.
 */
export function interpolate(
  value: unknown,
  env: NodeJS.ProcessEnv,
  found: Interpolation = { issues: [], references: new Map() },
  path: string[] = [],
): unknown {
  if (typeof value === 'string') return interpolateString(value, env, found, path);
  if (Array.isArray(value)) return value.map((v, i) => interpolate(v, env, found, [...path, String(i)]));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env, found, [...path, k])]));
  }
  return value;
}

function interpolateString(s: string, env: NodeJS.ProcessEnv, found: Interpolation, path: string[]): string {
  let out = '';
  let from = 0;
  for (let at = s.indexOf('${'); at >= 0; at = s.indexOf('${', from)) {
    out += s.slice(from, at);
    REFERENCE.lastIndex = at;
    const m = REFERENCE.exec(s);
    if (!m || m[2]?.includes('${')) {
      const close = s.indexOf('}', at);
      const text = close < 0 ? s.slice(at) : s.slice(at, close + 1);
      const quoted = text.length > 60 ? `${text.slice(0, 59)}…` : text;
      found.issues.push({ path, message: `malformed \${…} reference "${quoted}" (${MALFORMED})` });
      out += text;
      from = at + text.length;
      continue;
    }
    const [ref, name, def] = m as unknown as [string, string, string | undefined];
    found.references.set(pathKey(path), { whole: ref.length === s.length, name });
    const v = env[name];
    if (v !== undefined && v !== '') out += v;
    else if (def !== undefined) out += def;
    else found.issues.push({ path, message: `environment variable ${name} is not set` });
    from = at + ref.length;
  }
  return out + s.slice(from);
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A whole-value `${VAR}` in a number or boolean field: the variable's text as that type, if it is one. */
function coerce(text: string, expected: string): number | boolean | undefined {
  const t = text.trim();
  if (expected === 'boolean') return /^true$/i.test(t) ? true : /^false$/i.test(t) ? false : undefined;
  return NUMBER.test(t) ? Number(t) : undefined;
}

function child(o: unknown, k: string): unknown {
  return o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; issues: ConfigIssue[] };

/**
 * Parses `value` (an interpolated subtree at `prefix`), converting whole-value `${VAR}` strings to the
 * number or boolean a field expects, then parsing again. Issue paths come back absolute.
 */
function parseInterpolated<T>(
  parse: (v: unknown) => Parsed<T>,
  value: unknown,
  prefix: string[],
  found: Interpolation,
): Parsed<T> {
  for (let round = 0; ; round++) {
    const r = parse(value);
    if (r.ok) return r;
    let coerced = false;
    const issues = r.issues.map((issue): ConfigIssue => {
      const path = [...prefix, ...issue.path];
      const ref = found.references.get(pathKey(path));
      const expected = issue.expected;
      if (
        !ref ||
        issue.code !== 'invalid_type' ||
        (expected !== 'number' && expected !== 'int' && expected !== 'boolean')
      )
        return { ...issue, path };
      const type = expected === 'boolean' ? 'boolean' : 'number';
      if (!ref.whole) {
        return {
          path,
          message: `expected a ${type}, but a \${…} inside a longer string yields a string (write the whole value as one \${VAR} to get a ${type})`,
        };
      }
      const parent = issue.path.slice(0, -1).reduce<unknown>(child, value);
      const key = issue.path.at(-1);
      const text = child(parent, key ?? '');
      const v = typeof text === 'string' ? coerce(text, type) : undefined;
      if (v !== undefined && key !== undefined && round < 3) {
        (parent as Record<string, unknown>)[key] = v;
        coerced = true;
      }
      return { path, message: `expected a ${type}, but \${${ref.name}} is ${text === '' ? 'empty' : `not a ${type}`}` };
    });
    if (!coerced) return { ok: false, issues };
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `"path.to.key: message"` (what custom validators may return) as an issue. */
function issueFromString(s: string): ConfigIssue {
  const i = s.indexOf(': ');
  const path = i < 0 ? '(root)' : s.slice(0, i);
  return { path: path === '(root)' || path === '' ? [] : path.split('.'), message: i < 0 ? s : s.slice(i + 2) };
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object') {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

/**
 * Validates connector settings; supplied by connectors/registry.ts to keep src/ free of connectors.
 * Issue paths are relative to `settings`; strings are `"path: message"`.
 */
export type SettingsValidator = (
  system: ConnectionConfig['system'],
  settings: unknown,
) => { ok: true; value: unknown } | { ok: false; issues: ReadonlyArray<string | ConfigIssue> };

const KnownSystem = ConnectionConfig.shape.system;

/**
 * Interpolates, validates and freezes a config. Every problem is reported at once, with its path: the
 * settings of every connection whose `system` is known are validated even when the rest of the config
 * is invalid. A path whose `${…}` failed (unset variable, malformed reference) reports only that.
 */
export function parseConfig(
  raw: unknown,
  env: NodeJS.ProcessEnv = process.env,
  validateSettings?: SettingsValidator,
  source = 'config',
): AppConfig {
  const found: Interpolation = { issues: [], references: new Map() };
  const interpolated = interpolate(raw, env, found);
  const issues: ConfigIssue[] = [...found.issues];

  const base = parseInterpolated(
    (v): Parsed<AppConfig> => {
      const r = AppConfig.safeParse(v);
      return r.success ? { ok: true, value: r.data } : { ok: false, issues: configIssues(r.error) };
    },
    interpolated,
    [],
    found,
  );
  if (!base.ok) issues.push(...base.issues);

  const connections =
    isRecord(interpolated) && Array.isArray(interpolated.connections) ? (interpolated.connections as unknown[]) : [];
  const ids = new Map<string, number>();
  connections.forEach((c, i) => {
    if (!isRecord(c)) return;
    if (typeof c.id === 'string') {
      const path = ['connections', String(i), 'id'];
      const first = ids.get(c.id);
      // An id from ${VAR} is not quoted: no variable's value goes into an error.
      const id = found.references.has(pathKey(path)) ? '' : ` "${c.id}"`;
      if (first !== undefined)
        issues.push({ path, message: `duplicate connection id${id} (same as connections.${first}.id)` });
      else ids.set(c.id, i);
    }
    const system = KnownSystem.safeParse(c.system);
    const settings = c.settings ?? {};
    if (!validateSettings || !system.success || !isRecord(settings)) return;
    const s = parseInterpolated(
      (v): Parsed<unknown> => {
        const r = validateSettings(system.data, v);
        return r.ok ? r : { ok: false, issues: r.issues.map((x) => (typeof x === 'string' ? issueFromString(x) : x)) };
      },
      settings,
      ['connections', String(i), 'settings'],
      found,
    );
    if (!s.ok) issues.push(...s.issues);
    else if (base.ok) (base.value.connections[i] as { settings: unknown }).settings = s.value;
  });

  if (base.ok)
    issues.push(
      ...billingTargetIssues(base.value),
      ...webhookIssues(base.value),
      ...fieldMappingIssues(base.value.connections),
    );

  if (issues.length) {
    const failed = new Set(found.issues.map((x) => pathKey(x.path)));
    const reported = [
      ...found.issues,
      ...issues.slice(found.issues.length).filter((x) => !failed.has(pathKey(x.path))),
    ];
    throw new ConfigError(`${source} is invalid:\n  - ${[...new Set(reported.map(formatIssue))].join('\n  - ')}`);
  }
  return deepFreeze((base as { value: AppConfig }).value);
}

export async function loadConfig(
  file: string,
  env: NodeJS.ProcessEnv = process.env,
  validateSettings?: SettingsValidator,
): Promise<AppConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read config ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (e) {
    // The parser's message ends with the offending line quoted under its position: keep the position,
    // not the line (it may hold a value that should have been a ${VAR}, and this error is logged).
    const where = (e as Error).message.split('\n')[0]!.replace(/:$/, '');
    throw new ConfigError(`${file} is not valid YAML: ${where}`);
  }
  return parseConfig(raw, env, validateSettings, file);
}
