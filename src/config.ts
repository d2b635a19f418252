import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { OriginSource } from './billing/schemas/index.js';
import { ConfigError } from './errors/index.js';
import { formatZodIssues } from './errors/format-zod-issues.js';

/**
 * The one config schema. A YAML file, `${VAR}` / `${VAR:-default}` interpolated from the environment
 * (secrets stay out of the file), parsed once, deep-frozen. Every error is reported with its path.
 * Connector settings are validated by each connector's own schema (connectors/registry.ts).
 */

const Seconds = (def: number) => z.number().int().min(0).default(def);
/** `${VAR:-}` interpolates to '': an empty optional setting means "not set". */
const optional = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

export const ConnectionConfig = z.strictObject({
  /** Stable id, used in ids, keys and metrics labels: lowercase letters, digits and dashes. */
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'use 1–40 lowercase letters, digits or dashes'),
  system: z.enum(['zoho-books', 'quickbooks', 'xero']),
  /** invoiceOriginSource written on every invoice of this connection. */
  originSource: OriginSource.refine((s) => s.startsWith('EXTERNAL_SYSTEM_'), 'must be EXTERNAL_SYSTEM_A, B or C'),
  entities: z
    .array(z.enum(['invoices', 'credit-notes', 'customers']))
    .min(1)
    .default(['customers', 'invoices', 'credit-notes']),
  schedule: z.strictObject({ everySeconds: z.number().int().min(5).default(300) }).prefault({}),
  /** Overrides the vendor's API base URL (the sandbox, a proxy). */
  baseUrl: z.url().optional(),
  /** Re-read this far behind the checkpoint (cursor edges, clock skew, same-second edits). @defaultValue 600 */
  lookbackSeconds: Seconds(600),
  /** Read only up to now − this (records still settling at the vendor). @defaultValue 5 */
  settleDelaySeconds: Seconds(5),
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
});
export type ConnectionConfig = z.infer<typeof ConnectionConfig>;

export const AppConfig = z.strictObject({
  billing: z.strictObject({
    url: z.url(),
    apiKey: z.string().min(1),
    attachmentKey: optional(z.string().min(1)),
    /** The billing company's base currency: exchangeRate is relative to it. */
    baseCurrency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code')
      .default('INR'),
    /** Billing requests allowed per `durationMs`, across every worker. */
    rateLimit: z.strictObject({ max: z.number().int().min(1).default(50), durationMs: z.number().int().min(1).default(1000) }).prefault({}),
    timeoutMs: z.number().int().min(100).default(15_000),
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
      /** Bearer token for /admin/queues; without it the queue UI is off. */
      adminToken: optional(z.string().min(16, 'use at least 16 characters')),
    })
    .prefault({}),
  sync: z
    .strictObject({
      upsertConcurrency: z.number().int().min(1).max(256).default(16),
      pullConcurrency: z.number().int().min(1).max(32).default(4),
      /** BullMQ attempts per upsert job (exponential backoff with jitter between them). */
      attempts: z.number().int().min(1).max(50).default(8),
      backoffMs: z.number().int().min(10).default(2_000),
      /** A pull waits while the upsert backlog is above this. */
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
    })
    .prefault({}),
  reconcile: z
    .strictObject({
      /** Daily reconcile of the previous N days per connection; 0 turns it off. */
      windowDays: z.number().int().min(0).default(2),
      everySeconds: z.number().int().min(60).default(86_400),
      /** Time zone of the date part of UPDATED_AT windows. */
      timeZone: z.string().default('UTC'),
    })
    .prefault({}),
  connections: z.array(ConnectionConfig).min(1, 'at least one connection'),
});
export type AppConfig = z.infer<typeof AppConfig>;

const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Replaces ${VAR} in every string of the parsed YAML (not in the raw text: no YAML injection). */
export function interpolate(value: unknown, env: NodeJS.ProcessEnv, path: string[] = [], missing: string[] = []): unknown {
  if (typeof value === 'string') {
    return value.replace(VAR, (_m, name: string, def: string | undefined) => {
      const v = env[name];
      if (v !== undefined && v !== '') return v;
      if (def !== undefined) return def;
      missing.push(`${path.join('.') || '(root)'}: environment variable ${name} is not set`);
      return '';
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => interpolate(v, env, [...path, String(i)], missing));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env, [...path, k], missing)]));
  }
  return value;
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object') {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

/** Validates connector settings; supplied by connectors/registry.ts to keep src/ free of connectors. */
export type SettingsValidator = (system: ConnectionConfig['system'], settings: unknown) => { ok: true; value: unknown } | { ok: false; issues: string[] };

export function parseConfig(raw: unknown, env: NodeJS.ProcessEnv = process.env, validateSettings?: SettingsValidator, source = 'config'): AppConfig {
  const missing: string[] = [];
  const interpolated = interpolate(raw, env, [], missing);
  const issues = [...missing];
  const r = AppConfig.safeParse(interpolated);
  if (!r.success) issues.push(...formatZodIssues(r.error));
  if (r.success) {
    const ids = new Set<string>();
    r.data.connections.forEach((c, i) => {
      if (ids.has(c.id)) issues.push(`connections.${i}.id: duplicate connection id "${c.id}"`);
      ids.add(c.id);
      if (validateSettings) {
        const s = validateSettings(c.system, c.settings);
        if (!s.ok) issues.push(...s.issues.map((m) => `connections.${i}.settings.${m}`));
        else (c as { settings: unknown }).settings = s.value;
      }
    });
  }
  if (issues.length) {
    throw new ConfigError(`${source} is invalid:\n  - ${[...new Set(issues)].join('\n  - ')}`);
  }
  return deepFreeze(r.data!);
}

export async function loadConfig(file: string, env: NodeJS.ProcessEnv = process.env, validateSettings?: SettingsValidator): Promise<AppConfig> {
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
    throw new ConfigError(`${file} is not valid YAML: ${(e as Error).message}`);
  }
  return parseConfig(raw, env, validateSettings, file);
}
