import type { JobsOptions } from 'bullmq';
import { z } from 'zod';
import type { AppConfig } from '../src/config.js';
import { BillingBody } from '../src/connector/billing-body.js';
import { Entity } from '../src/connector/entities.js';
import { LIFECYCLES } from '../src/connector/lifecycle.js';
import { HISTORY_PATHS } from '../src/pipeline/record-history-codec.js';

/**
 * Every job: its queue, payload schema and retry policy. One queue per job type, so concurrency, rate
 * limits and metrics stay separate. Producers and workers both derive their types from here.
 *
 * Retry budget: one owner per layer; the worst case per record (24 billing requests for a job, 27 for a
 * record that leaves its batch) is the table in docs/configuration.md, "Retry budget". Here: the upsert
 * job's `sync.attempts` and backoff, the pull job's 5 attempts, and `maxStartedAttempts`, which bounds the
 * starts that use no attempt (429s, lock, slot and dependency waits) so a permanent 429 storm still ends.
 */

/**
 * Completed upserts kept for the queue UI and `explain`, in records: a batch keeps proportionally fewer
 * jobs (each holds its records' bodies), so Redis holds about the same whatever the batch size.
 */
export const KEPT_COMPLETED_UPSERT_RECORDS = 1_000;

/** The most records one upsert job may carry (`sync.upsertBatchSize`). */
export const UPSERT_BATCH_MAX = 100;

export const QUEUES = {
  pull: 'pull',
  upsert: 'upsert',
  backfill: 'backfill',
  reconcile: 'reconcile',
  sweep: 'sweep',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/**
 * The steps a job passes before its processor runs (jobs/admission/admission.ts says what each does and builds
 * the chain): `schedule-skip`, `safety-net`, `run-history` and `company-guard` wrap the job before its payload is
 * parsed; `gate` and `slots` run in the job's wrapper (jobs/define-job.ts) once it is, so they come last.
 */
export type AdmissionStep = 'schedule-skip' | 'safety-net' | 'run-history' | 'company-guard' | 'gate' | 'slots';

/**
 * Each job's admission, in order: the first step listed is the first a job meets. A new job type lists
 * its own (an empty list: its processor runs as it starts).
 */
export const ADMISSION = {
  pull: ['schedule-skip', 'safety-net', 'run-history', 'company-guard', 'gate', 'slots'],
  upsert: ['company-guard', 'gate'],
  backfill: ['company-guard'],
  reconcile: ['schedule-skip', 'run-history', 'company-guard', 'gate', 'slots'],
  sweep: [],
} as const satisfies Record<QueueName, readonly AdmissionStep[]>;

/**
 * The jobs a step lets through untouched, whatever queue lists it. `run-history`: a targeted read of what
 * webhooks announced (jobs/pull/read-announced.ts) leaves no run record (`erp-sync runs`): one runs after
 * every coalesced batch, and they would push the pulls out of the bounded history. They are logged and
 * counted like pulls instead.
 */
export const ADMISSION_EXCEPTIONS: Partial<Record<AdmissionStep, (data: unknown) => boolean>> = {
  'run-history': (data) => Boolean((data as { webhook?: unknown } | undefined)?.webhook),
};

/**
 * The BullMQ prefix of a queue. On one Redis: the config's redis.prefix, as in earlier releases. On a Redis
 * Cluster BullMQ's scripts touch many keys of a queue at once, so its keys need a hash tag
 * (https://docs.bullmq.io/patterns/redis-cluster): each queue gets its own (`{<prefix>:<queue>}`) so the
 * queues spread over the shards, except backfill, which shares pull's: a backfill is a flow (one parent in
 * backfill, its windows in pull) and BullMQ moves a parent when a child finishes, in one script.
 */
export function queuePrefix(prefix: string, queue: QueueName, layout: { cluster?: boolean } = {}): string {
  if (!layout.cluster) return prefix;
  return `{${prefix}:${queue === QUEUES.backfill ? QUEUES.pull : queue}}`;
}

const DateOnly = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const Flat = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));

export const PullPayload = z.strictObject({
  connectionId: z.string().min(1),
  entity: Entity,
  /** Backfill window (document dates, inclusive); absent = incremental from the checkpoint. */
  window: z.strictObject({ from: DateOnly, to: DateOnly }).optional(),
  /**
   * Which run this pull belongs to (a backfill's, for resumable window checkpoints, or a repair's): its
   * upserts are tracked under it, so the run waits for its own work only.
   */
  runId: z.string().optional(),
  /**
   * A sweep for deletes (jobs/pull/sweep-deletes.ts): every id the source lists against the ledger, for a
   * vendor whose deletes leave no trace; reads no changes and moves no checkpoint.
   */
  deletes: z.literal(true).optional(),
  /** An incremental pull that must run (a repair's): it waits for a pull of the stream in progress instead of returning. */
  waitForRunning: z.boolean().optional(),
  /**
   * A targeted read of what webhook deliveries announced (jobs/pull/read-announced.ts): the stream's
   * batch of recorded events (src/pipeline/webhook-events.ts), read by id instead of from the checkpoint.
   */
  webhook: z.strictObject({ batch: z.number().int().min(0) }).optional(),
  /**
   * A backfill that reads every record again (`erp-sync backfill --reread`), even those whose version
   * the pipeline holds: what rewrites history after a mapping change (a record whose only change is its
   * mapped fields is written again; the others are `unchanged` by their content hash).
   */
  reread: z.literal(true).optional(),
});
export type PullPayload = z.infer<typeof PullPayload>;

export const UpsertPayload = z.strictObject({
  connectionId: z.string().min(1),
  entity: Entity,
  erpId: z.string().min(1),
  /** Source version, UTC ISO. */
  version: z.string().min(1),
  /** Content hash of `body`. */
  hash: z.string().length(64),
  sourceStatus: z.string().optional(),
  /** Where the source document stands (SourceRecord.lifecycle). */
  sourceLifecycle: z.enum(LIFECYCLES).optional(),
  /** The mapped billing body (no secrets: billing keys are never in job data). */
  body: BillingBody,
  /** Fields reconciliation compares, as exact strings. */
  fields: z.record(z.string(), z.string().nullable()).optional(),
  /** A shareable document link from the ERP, attached once as INVOICE_FOR_BUYER. */
  documentUrl: z.url().optional(),
  /** Cursor-free state to resume with, kept only for explain. */
  meta: Flat.optional(),
  /** How often this job already waited for the invoices a credit note applies to, and since when (ms). */
  dependencyWaits: z.number().int().min(0).optional(),
  dependencySince: z.number().int().optional(),
  /** The slot of its billing key's budget this job was set aside for (`rateLimit.scope: key`; Redis time, ms). */
  billingSlotAt: z.number().int().optional(),
  /** How the record came (the record's history tells it): absent = a pull's, poll or backfill by the job's priority. */
  path: z.enum(HISTORY_PATHS).optional(),
  /** Who approved this version after review before write (`erp-sync review approve`): it is written without a review check. */
  approvedBy: z.string().min(1).optional(),
});
/** As producers write it: the body as the mapper made it (billing's defaults not yet applied). */
export type UpsertPayload = z.input<typeof UpsertPayload>;

/**
 * What the upsert worker parses before it runs: the payload with its body not yet checked. A body
 * billing's schema refuses is the record's problem, not the job's: the processor checks it with
 * `BillingBody` and quarantines it (BILLING_REJECTED, as billing's own client would), where a payload
 * refused here fails without a quarantine entry.
 */
export const UpsertJobData = UpsertPayload.extend({ body: z.unknown() });
export type UpsertJobData = z.infer<typeof UpsertJobData>;

/**
 * Several records of one connection and entity in one upsert job (`sync.upsertBatchSize` > 1): BullMQ's
 * cost per job (fetch, lock, completion, (de)serialisation) is paid once for the batch. The unit of retry
 * and quarantine stays one record: a record that has to wait (its lock, its billing slot, the invoices a
 * credit note applies to) or whose write fails and may be retried leaves the batch as a single-record job
 * of its own (jobs/upsert/upsert-batch-processor.ts); the others are not retried. A record billing refuses is quarantined
 * as in a single-record job.
 */
export const UpsertBatchPayload = z.strictObject({
  connectionId: z.string().min(1),
  entity: Entity,
  records: z.array(UpsertPayload).min(1).max(UPSERT_BATCH_MAX),
  /** The backfill run whose upserts these are: a record leaving the batch is tracked under it too. */
  runId: z.string().optional(),
});
export type UpsertBatchPayload = z.input<typeof UpsertBatchPayload>;
/** As the worker parses it: each record's body not yet checked (see UpsertJobData). */
export const UpsertBatchJobData = UpsertBatchPayload.extend({
  records: z.array(UpsertJobData).min(1).max(UPSERT_BATCH_MAX),
});
/** The name a batch job carries in the upsert queue (single-record jobs are named 'upsert'). */
export const UPSERT_BATCH = 'upsert-batch';

export const BackfillPayload = z.strictObject({
  connectionId: z.string().min(1),
  entities: z.array(Entity).min(1),
  from: DateOnly,
  to: DateOnly,
  runId: z.string().min(1),
  /** Read every record again (PullPayload.reread). */
  reread: z.boolean().optional(),
});
export type BackfillPayload = z.infer<typeof BackfillPayload>;

export const ReconcilePayload = z
  .strictObject({
    connectionId: z.string().min(1),
    /** An explicit window (inclusive days) … */
    from: DateOnly.optional(),
    to: DateOnly.optional(),
    /** … or the last N days up to today (scheduled runs). */
    lastDays: z.number().int().min(1).optional(),
    deep: z.boolean().default(false),
    repair: z.boolean().default(false),
    /** Scheduled runs: also the next slice of the history cycle and the count invariant (jobs/reconcile/history-checks.ts). */
    history: z.boolean().optional(),
    /** … or the connection's whole history, by invoice date (jobs/reconcile/reconcile-history.ts; `erp-sync reconcile --history`). */
    wholeHistory: z.literal(true).optional(),
    /**
     * Someone waits for the result (`erp-sync reconcile`): the job returns all of it (the drifted records,
     * what a repair did), not the summary a scheduled run keeps.
     */
    fullResult: z.literal(true).optional(),
  })
  .refine((p) => (p.from && p.to) || p.lastDays || p.wholeHistory, {
    message: 'give from and to, lastDays, or wholeHistory',
  });
export type ReconcilePayload = z.infer<typeof ReconcilePayload>;

/**
 * Priorities: lower number = sooner. Incremental pulls before backfill windows. The upserts of history read
 * on a connection that takes webhooks (a first sync, a repair's pull: the `history` quota lane,
 * src/waits/vendor-waits.ts) come after the incremental ones, so a change a webhook announced is not
 * written behind a first sync's page of hundreds of records.
 */
export const PRIORITY = { incremental: 1, history: 5, backfill: 10 } as const;
/** Credit notes go after invoices of the same kind of run: they apply to invoices billing must have. */
export const CREDIT_NOTE_PRIORITY_OFFSET = 2;
/**
 * A credit note waits for the invoices it applies to: 2 s, doubling to at most 60 s per wait, at most 40
 * waits (about 35 minutes in all, enough for a large backfill's backlog), then it is quarantined.
 */
export const DEPENDENCY_WAITS_MAX = 40;
/**
 * How often an upsert job may be started before BullMQ fails it (then we quarantine it): its attempts,
 * 40 starts for 429 round trips and waits for a record's lock, and the credit-note dependency waits;
 * with per-key budgets (`rateLimit.scope: key`), one wait for its key's slot per attempt.
 */
export function maxStartedAttempts(attempts: number, scope: 'deployment' | 'key' = 'deployment'): number {
  return attempts * (scope === 'key' ? 2 : 1) + 40 + DEPENDENCY_WAITS_MAX;
}
export function dependencyWaitMs(waits: number): number {
  return Math.min(60_000, 2_000 * 2 ** waits);
}

export function jobOptions(config: AppConfig) {
  const keepFailed = { age: 30 * 24 * 3600 };
  return {
    pull: {
      attempts: 5,
      backoff: { type: 'exponential', delay: 5_000, jitter: 0.5 },
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: keepFailed,
    },
    upsert: {
      attempts: config.sync.attempts,
      backoff: { type: 'exponential', delay: config.sync.backoffMs, jitter: 0.5 },
      // A completed upsert is not read again: the ledger, written in the job's last round trip (before
      // BullMQ marks it completed), is what lets a pull skip content already written, and a run's
      // backlog counts a missing job as done. A completed job kept would cost Redis ~4.8 kB per record
      // (its body); only the last 1,000 records' jobs stay (a batch of 20 keeps 50), for the queue UI and `explain`.
      removeOnComplete: { count: KEPT_COMPLETED_UPSERT_RECORDS },
      removeOnFail: keepFailed,
      stackTraceLimit: 5,
    },
    backfill: { attempts: 1, removeOnComplete: { age: 7 * 24 * 3600 }, removeOnFail: keepFailed },
    sweep: {
      attempts: 1,
      removeOnComplete: { age: 3600, count: 100 },
      removeOnFail: { age: 7 * 24 * 3600, count: 100 },
    },
    reconcile: {
      attempts: 2,
      backoff: { type: 'exponential', delay: 30_000 },
      removeOnComplete: { age: 30 * 24 * 3600, count: 500 },
      removeOnFail: keepFailed,
    },
  } satisfies Record<string, JobsOptions>;
}
