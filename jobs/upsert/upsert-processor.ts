import { type Queue, RateLimitError } from 'bullmq';
import type { Logger } from 'pino';
import type { BillingClient } from '../../src/billing/client.js';
import type { CreditNoteInput, CustomerDetailsInput } from '../../src/billing/schemas/index.js';
import type { AppConfig } from '../../src/config.js';
import { parseBillingBody } from '../../src/connector/billing-body.js';
import type { EntityName } from '../../src/connector/entities.js';
import {
  ConflictError,
  DataContractError,
  formatZodIssues,
  RateLimitedError,
  type SyncError,
} from '../../src/errors/index.js';
import type { Metrics } from '../../src/observability/metrics.js';
import { withChangeToBilling } from './change-to-billing.js';
import type { BillingBudget } from '../../src/pipeline/billing-budget.js';
import type { FreshnessSamples } from '../../src/pipeline/freshness-samples.js';
import type { BillingKeyBudgets } from '../../src/pipeline/billing-key-budgets.js';
import type { CustomersEnsured } from '../../src/pipeline/customers-ensured.js';
import type { InFlight } from '../../src/pipeline/in-flight.js';
import type { Ledger, LedgerEntry } from '../../src/pipeline/ledger.js';
import type { Lease, LeaseKeeper } from '../../src/pipeline/lease-keeper.js';
import type { Quarantine } from '../../src/pipeline/quarantine.js';
import type { RecordHistory } from '../../src/pipeline/record-history.js';
import type { RecordBegun, UpsertState } from '../../src/pipeline/upsert-state.js';
import { decideBillingWait } from '../../src/waits/billing-waits.js';
import { DEPENDENCY_WAITS_MAX, dependencyWaitMs, QUEUES, UpsertJobData } from '../catalog.js';
import type { BillingBreaker } from '../admission/billing-outage.js';
import { type Deferral, defer } from '../admission/defer.js';
import { defineJob } from '../define-job.js';
import { JobSettlements } from './job-settlements.js';
import { settlingWithHistory } from './upsert-history.js';
import { classifyUpsertFailure, type UpsertQuarantineReason } from './classify-upsert-failure.js';
import { DependencyMissingError } from './dependency-missing-error.js';
import { holdForReview, type ReviewHelpers } from './hold-for-review.js';
import { invoicesNotInBilling, invoicesThatWillNotCome } from './missing-invoices.js';
import type { ConnectionGate } from '../admission/connection-gate.js';

export type UpsertBillingClient = Pick<
  BillingClient,
  'upsertInvoice' | 'upsertCreditNote' | 'addInvoiceAttachment' | 'searchCustomers' | 'createCustomer' | 'listInvoices'
>;

/** What an upsert job uses, and nothing else (built by makeJobHelpers). */
export interface UpsertHelpers {
  logger: Logger;
  metrics: Metrics;
  /** Holds back the jobs of a paused connection (jobs/admission/connection-gate.ts). */
  connectionGate?: ConnectionGate;
  /** The process's lease keeper: renews the record locks of its jobs. */
  leases?: LeaseKeeper;
  config: { sync: Pick<AppConfig['sync'], 'dependencyWaitSeconds'> };
  /**
   * The billing company a connection writes to: the client holding its keys, whether it has an
   * attachment key, and its key's fingerprint (its budget under `rateLimit.scope: key`).
   */
  billingFor(connectionId: string): { client: UpsertBillingClient; canAttach: boolean; keyId: string };
  /** The deployment's billing budget (`rateLimit.scope: deployment`), which a 429 pauses for every request. */
  billingBudget?: Pick<BillingBudget, 'pause'>;
  /** Per billing key budgets, under `billing.rateLimit.scope: key` only (else the queue's limiter is the budget). */
  keyBudgets?: Pick<BillingKeyBudgets, 'slot' | 'pause'>;
  upsertState: Pick<UpsertState, 'beginMany' | 'settleMany' | 'extendLocks'>;
  /** Each record's outcomes (jobs/upsert/upsert-history.ts); absent: none kept. */
  recordHistory?: Pick<RecordHistory, 'appendMany' | 'list'>;
  customersEnsured: Pick<CustomersEnsured, 'has' | 'add'>;
  ledger: Pick<Ledger, 'get' | 'getMany'>;
  quarantine: Pick<Quarantine, 'put' | 'get'>;
  inFlight: Pick<InFlight, 'settle'>;
  queues: { upsert: Pick<Queue, 'rateLimit'> };
  /** Counts consecutive transient billing failures; says when billing is down (jobs/admission/billing-outage.ts). */
  breaker: BillingBreaker;
  /** How long a job's record locks last unless it settles or extends them (default RECORD_LOCK_TTL_MS; tests shorten it). */
  recordLockTtlMs?: number;
  /** Review before write (`connections[].review`); absent: nothing is held. */
  review?: ReviewHelpers;
  /** Where each written change's latency is kept for every process (`connections`, `status`); absent: the histogram only. */
  freshness?: Pick<FreshnessSamples, 'add'>;
}

/** Why and until when a record is set aside. */
export type RecordDeferral = Pick<Deferral, 'at' | 'jitterMs'> & {
  reason: 'record-locked' | 'billing-slot' | 'dependency';
};

export type UpsertOutcome = 'written' | 'unchanged' | 'stale' | 'held';

/** The billing call that writes each entity (named as billing's client names its operations). */
const BILLING_WRITE = {
  invoices: 'POST /external/invoice/upsert',
  'credit-notes': 'POST /external/creditNotes/upsert',
  customers: 'POST /external/customer',
} as const satisfies Record<EntityName, string>;

/**
 * How a record that cannot be written now is set aside. A single-record job moves itself back to the
 * queue (delayed, or held by the queue's pause), without using an attempt; a record in a batch leaves
 * the batch as a job of its own (jobs/upsert/upsert-batch-processor.ts), so the batch's other records are not held up.
 */
export interface RecordControl {
  /** The job that carries the record now: its in-flight entry, its lock owner and its ledger entry name it. */
  jobId: string;
  attemptsMade: number;
  /** Sets the record aside until the deferral's instant (jobs/admission/defer.ts), with `data` as its payload from then on. Never returns. */
  setAside(d: RecordDeferral, data?: UpsertJobData): Promise<never>;
  /** Keeps an updated payload without setting the record aside. */
  keep(data: UpsertJobData): Promise<void>;
  /** Billing is paused (a 429, or billing down; the upsert queue's pause is already set). Never returns. */
  paused(): Promise<never>;
}

/** How long a job's record locks last unless it settles or extends them (a job whose worker died holds them this long). */
export const RECORD_LOCK_TTL_MS = 60_000;

/** A record of an upsert job with its body checked by billing's schema, ready to begin. */
export interface PreparedRecord {
  data: UpsertJobData;
  parsed: ReturnType<typeof parseBillingBody>;
  /** The buyer the body names: ensured in billing before the record is written. */
  buyer?: CustomerDetailsInput;
}

export function prepareRecord(data: UpsertJobData): PreparedRecord {
  const parsed = parseBillingBody(data.body);
  const body = parsed.data;
  const buyer =
    body?.kind === 'invoice'
      ? body.invoice.customerDetails
      : body?.kind === 'credit-note'
        ? body.creditNote.customerDetails
        : body?.customer;
  return { data, parsed, buyer };
}

/**
 * One record to billing. Idempotent: the billing upsert key is deterministic (invoiceId from the
 * connection and ERP id), the ledger refuses older versions, and a per-record lock keeps two versions
 * of one record from racing to billing.
 */
export function upsertProcessor(rt: UpsertHelpers) {
  return defineJob(
    QUEUES.upsert,
    UpsertJobData,
    rt,
    async ({ job, data, token, signal, log, leases }): Promise<{ outcome: UpsertOutcome }> => {
      const control: RecordControl = {
        jobId: job.id!,
        attemptsMade: job.attemptsMade,
        setAside: (d, updated) => defer(job, token, { ...d, data: updated }),
        async keep(updated) {
          await job.updateData(updated);
        },
        async paused() {
          // The job goes back to wait without consuming an attempt.
          throw new RateLimitError();
        },
      };
      const record = prepareRecord(data);
      const settlements = new JobSettlements(
        withChangeToBilling(rt, settlingWithHistory(rt, job, [data], log), job, [data]),
        data.connectionId,
        data.entity,
        `job-${job.id}`,
        job.id!,
        log,
      );
      const lockTtlMs = rt.recordLockTtlMs ?? RECORD_LOCK_TTL_MS;
      // One round trip: the record lock, the ledger entry, whether the buyer is already ensured.
      const [begun] = await rt.upsertState.beginMany(
        data.connectionId,
        data.entity,
        [{ erpId: data.erpId, buyerId: record.buyer?.buyerId }],
        lockTtlMs,
        settlements.owner,
      );
      if (begun!.locked) settlements.locked(data.erpId);
      // The record's lock is kept while the job runs, however long its billing calls take.
      const untrack = begun!.locked
        ? leases.track(recordLocksLease(rt, data.connectionId, data.entity, settlements, lockTtlMs))
        : () => {};
      try {
        return await upsertRecord(rt, control, record, begun!, settlements, { signal, log });
      } finally {
        untrack();
        // One round trip: the outcome (ledger write, quarantine cleared, in-flight settled) and the lock released.
        await settlements.flush();
      }
    },
  );
}

/** The record locks a job holds and has not settled yet, as a lease (renewed by the process's lease keeper). */
export function recordLocksLease(
  rt: Pick<UpsertHelpers, 'upsertState'>,
  connection: string,
  entity: EntityName,
  settlements: Pick<JobSettlements, 'held' | 'owner'>,
  ttlMs: number,
): Lease {
  return {
    kind: 'record-locks',
    owner: settlements.owner,
    ttlMs,
    renew: async () => {
      const held = [...settlements.held];
      return (await rt.upsertState.extendLocks(connection, entity, held, ttlMs, settlements.owner)) === held.length;
    },
  };
}

/**
 * The upsert of one record, whatever job carries it, after its job's BEGIN (`begun`). Returns its
 * outcome; throws for a record set aside (through `control`), quarantined (a non-retryable SyncError,
 * after the quarantine entry is written) or failed in a way a retry may mend. A record whose lock the job
 * holds is settled in `settlements` whatever happens (the job tells Redis, see jobs/upsert/job-settlements.ts).
 *
 * The steps: admit (the record's lock) → skip what billing already holds → hold for review → take a billing slot → ensure
 * the customer → write by entity → settle; a failure is classified (classifyUpsertFailure) and acted on.
 */
export async function upsertRecord(
  rt: UpsertHelpers,
  control: RecordControl,
  record: PreparedRecord,
  begun: RecordBegun,
  settlements: Pick<JobSettlements, 'add'>,
  { signal, log }: { signal?: AbortSignal; log: Logger },
): Promise<{ outcome: UpsertOutcome }> {
  const run = upsertRun(rt, control, record, begun, { signal, log });
  const { connectionId: conn, entity, erpId } = record.data;
  if (!begun.locked) {
    // Another version of this record is being written: come back shortly, without using an attempt.
    return await control.setAside({ reason: 'record-locked', at: Date.now() + 200, jitterMs: 300 });
  }
  let settled = false;
  const settle: JobSettlements['add'] = (id, settlement, now) => {
    settlements.add(id, settlement, now);
    settled = true;
  };
  try {
    const skipped = alreadyInBilling(run);
    if (skipped) {
      rt.metrics.recordsSkipped.inc({ connection: conn, entity, reason: skipped });
      settle(erpId, skipped === 'stale' ? { outcome: 'stale' } : { outcome: 'unchanged', version: run.data.version });
      return { outcome: skipped };
    }
    const body = checkedBody(record);
    // Review before write: a held record is settled here, not written (src/pipeline/review-queue.ts).
    const hold = await holdForReview(rt.review, run.data, body, begun, record.buyer?.buyerId);
    if (hold) {
      const { rule, result } = hold;
      const again = result === 'kept' || result === 'rejected';
      settle(
        erpId,
        result === 'newer' ? { outcome: 'stale' } : { outcome: 'held', version: run.data.version, rule, again },
      );
      return { outcome: result === 'newer' ? 'stale' : 'held' };
    }
    await takeBillingSlot(run);
    if (record.buyer && !begun.customerEnsured)
      await ensureCustomer({ billing: run.billing, customersEnsured: rt.customersEnsured }, conn, record.buyer, signal);
    const written = await writeByEntity(run, body);
    // Settled with the job's other records (jobs/upsert/job-settlements.ts): ledger write (never over a newer
    // version), quarantine cleared, in-flight settled, lock released. At once after an attachment.
    settle(erpId, { outcome: 'written', entry: writtenEntry(run, written) }, run.needsAttachment);
    rt.breaker.succeeded();
    // An approved version is in billing: a copy of it held meanwhile (a pull's, before this write) goes.
    if (run.data.approvedBy) await rt.review?.queue.clear(conn, entity, erpId, run.data.version);
    rt.metrics.recordsUpserted.inc({ connection: conn, entity });
    return { outcome: 'written' };
  } catch (err) {
    return await failUpsert(run, err);
  } finally {
    if (!settled) settlements.add(erpId, { outcome: 'released' });
  }
}

/** One record's upsert, as each of its steps sees it. */
interface UpsertRun {
  rt: UpsertHelpers;
  control: RecordControl;
  /** The record's payload; a billing slot once used is cleared from it (takeBillingSlot). */
  data: UpsertJobData;
  /** What the ledger holds of the record. */
  current?: LedgerEntry;
  billing: UpsertBillingClient;
  keyId: string;
  /**
   * Attaching the ERP's document link is optional: without an attachment key the invoice is written and
   * the link left out (refusing the invoice for want of its PDF link would lose money data).
   */
  needsAttachment: boolean;
  signal?: AbortSignal;
  log: Logger;
}

/** Every call of this job goes to the connection's billing company, with its keys. */
function upsertRun(
  rt: UpsertHelpers,
  control: RecordControl,
  { data }: PreparedRecord,
  begun: RecordBegun,
  { signal, log }: { signal?: AbortSignal; log: Logger },
): UpsertRun {
  const { client: billing, canAttach, keyId } = rt.billingFor(data.connectionId);
  const current = begun.current;
  const needsAttachment = canAttach && Boolean(data.documentUrl) && current?.attachmentUrl !== data.documentUrl;
  return { rt, control, data, current, billing, keyId, needsAttachment, signal, log };
}

/** `stale`: the ledger holds a newer version; `unchanged`: it holds this content (and its link, if one is due). */
function alreadyInBilling({ current, data, needsAttachment }: UpsertRun): 'stale' | 'unchanged' | undefined {
  if (current && current.version > data.version) return 'stale';
  if (current && current.hash === data.hash && !needsAttachment) return 'unchanged';
  return undefined;
}

/** A body billing's schema refuses: the refusal (and the quarantine entry) billing's client would give. */
function checkedBody({ parsed, data }: PreparedRecord): NonNullable<PreparedRecord['parsed']['data']> {
  if (parsed.data) return parsed.data;
  const operation = BILLING_WRITE[data.entity];
  throw new DataContractError(`billing ${operation}: invalid request`, {
    issues: formatZodIssues(parsed.error!),
    source: 'billing',
    operation,
  });
}

/**
 * The key's budget (rateLimit.scope key): a full window sets this record aside until the slot it was
 * given, without an attempt, rather than hold a worker slot that another company's job could use.
 */
async function takeBillingSlot(run: UpsertRun): Promise<void> {
  const { rt, control, keyId } = run;
  if (!rt.keyBudgets) return;
  const slot = await rt.keyBudgets.slot(keyId, run.data.billingSlotAt);
  const wait = slot.waitMs > 0 ? decideBillingWait({ kind: 'window-full', waitMs: slot.waitMs }) : undefined;
  if (wait?.action === 'wait-for-slot')
    return await control.setAside(
      { reason: 'billing-slot', at: Date.now() + wait.waitMs },
      { ...run.data, billingSlotAt: slot.slotAt },
    );
  // A slot is used once: a retry of this job after a failure asks for a new one.
  if (run.data.billingSlotAt !== undefined) {
    run.data = { ...run.data, billingSlotAt: undefined };
    await control.keep(run.data);
  }
}

/** The billing write of the record's entity: its billing id and document number. */
async function writeByEntity(
  run: UpsertRun,
  body: ReturnType<typeof checkedBody>,
): Promise<{ billingId: string; number?: string }> {
  const { billing, signal } = run;
  if (body.kind === 'invoice') {
    const invoice = body.invoice;
    await billing.upsertInvoice(invoice, { signal });
    if (run.needsAttachment) {
      await billing.addInvoiceAttachment(
        {
          invoiceNumber: invoice.invoiceNumber,
          attachmentUrl: run.data.documentUrl!,
          attachmentPurpose: 'INVOICE_FOR_BUYER',
        },
        { signal },
      );
    }
    return { billingId: invoice.invoiceId, number: invoice.invoiceNumber };
  }
  if (body.kind === 'credit-note') {
    const creditNote = body.creditNote;
    await awaitAppliedInvoices(run, creditNote);
    await billing.upsertCreditNote(creditNote, { signal });
    return { billingId: creditNote.creditNoteId, number: creditNote.creditNoteNumber };
  }
  return { billingId: body.customer.buyerId };
}

/**
 * A credit note applied to an invoice billing does not have yet (it may still be queued) waits for it,
 * within the dependency wait; one whose invoices will not come, or still have not, is refused.
 */
async function awaitAppliedInvoices(run: UpsertRun, creditNote: CreditNoteInput): Promise<void> {
  const { rt, data } = run;
  const missing = await invoicesNotInBilling(rt, run.billing, data.connectionId, creditNote, run.signal);
  if (!missing.length) return;
  const waits = data.dependencyWaits ?? 0;
  const since = data.dependencySince ?? Date.now();
  const hopeless = await invoicesThatWillNotCome(rt, data.connectionId, missing);
  const inTime = Date.now() - since < rt.config.sync.dependencyWaitSeconds * 1000 && waits < DEPENDENCY_WAITS_MAX;
  if (!hopeless.length && inTime) {
    return await run.control.setAside(
      { reason: 'dependency', at: Date.now() + dependencyWaitMs(waits) },
      { ...data, billingSlotAt: undefined, dependencyWaits: waits + 1, dependencySince: since },
    );
  }
  throw new DependencyMissingError(
    hopeless.length
      ? `credit note ${creditNote.creditNoteNumber} applies to invoices that will not reach billing (quarantined or deleted in the source): ${hopeless.join(', ')}`
      : `credit note ${creditNote.creditNoteNumber} applies to invoices still not in billing after ${Math.round((Date.now() - since) / 1000)} s: ${missing.join(', ')}`,
  );
}

function writtenEntry(
  { data, current, control }: UpsertRun,
  { billingId, number }: { billingId: string; number?: string },
): LedgerEntry {
  return {
    hash: data.hash,
    version: data.version,
    billingId,
    number,
    sourceStatus: data.sourceStatus,
    sourceLifecycle: data.sourceLifecycle,
    writtenAt: Date.now(),
    jobId: control.jobId,
    fields: data.fields,
    attachmentUrl: data.documentUrl ?? current?.attachmentUrl,
  };
}

/** A failed upsert, as classifyUpsertFailure decides: billing's "not now" waits, a refusal is quarantined; then the error goes on. */
async function failUpsert(run: UpsertRun, err: unknown): Promise<never> {
  const { rt, control, data } = run;
  const billingDown = !(err instanceof RateLimitedError) && (await rt.breaker.failed(err));
  const failure = classifyUpsertFailure(err, { scope: rt.keyBudgets ? 'key' : 'deployment', billingDown });
  if (failure.action === 'pause-key') {
    // The record comes back at a slot after the key's pause, without an attempt; other keys' jobs keep flowing.
    const slot = await rt.keyBudgets!.pause(run.keyId, failure.pauseMs);
    return await control.setAside(
      { reason: 'billing-slot', at: Date.now() + slot.waitMs },
      { ...data, billingSlotAt: slot.slotAt },
    );
  }
  if (failure.action === 'pause-queue') {
    // Every process: the queue's pause holds jobs not started, the deployment's budget the requests of jobs running.
    await Promise.all([rt.queues.upsert.rateLimit(failure.pauseMs), rt.billingBudget?.pause(failure.pauseMs)]);
    return await control.paused();
  }
  if (failure.action === 'wait-for-billing') {
    // The queue is paused until billing answers (jobs/admission/billing-outage.ts); this record waits in it, its attempt unused.
    run.log.info({ error: (err as Error).message }, 'billing is down; the job waits for it');
    return await control.paused();
  }
  if (failure.action === 'quarantine') await quarantineRecord(run, err as SyncError, failure.reason);
  throw err;
}

async function quarantineRecord(
  { rt, control, data }: UpsertRun,
  err: SyncError,
  reason: UpsertQuarantineReason,
): Promise<void> {
  const { connectionId: conn, entity, erpId } = data;
  await rt.quarantine.put({
    connection: conn,
    entity,
    erpId,
    version: data.version,
    reason,
    message: err.message,
    stage: 'upsert',
    at: Date.now(),
    attempts: control.attemptsMade + 1,
    payload: data,
  });
  await rt.inFlight.settle(conn, entity, erpId, control.jobId);
  rt.metrics.recordsQuarantined.inc({ connection: conn, entity, reason });
}

/**
 * "Ensure customer" (the interface has create but no update): search by BUYER_ID, create if absent.
 * Remembered per connection in Redis so each buyer costs one search, once.
 */
export async function ensureCustomer(
  rt: {
    billing: Pick<BillingClient, 'searchCustomers' | 'createCustomer'>;
    customersEnsured: Pick<CustomersEnsured, 'has' | 'add'>;
  },
  conn: string,
  customer: CustomerDetailsInput,
  signal?: AbortSignal,
): Promise<void> {
  if (await rt.customersEnsured.has(conn, customer.buyerId)) return;
  const found = await rt.billing.searchCustomers(
    { searchType: 'BUYER_ID', searchText: customer.buyerId, pageSize: 1 },
    { signal },
  );
  if (found.totalDocs === 0) {
    try {
      await rt.billing.createCustomer(customer, { signal });
    } catch (err) {
      // Another worker created it between our search and our create: that is the outcome we wanted.
      if (!(err instanceof ConflictError)) throw err;
    }
  }
  await rt.customersEnsured.add(conn, customer.buyerId);
}
