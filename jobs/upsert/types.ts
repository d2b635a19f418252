import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { BillingClient } from '../../src/billing/client.js';
import type { CustomerDetailsInput } from '../../src/billing/schemas/index.js';
import type { AppConfig } from '../../src/config.js';
import type { parseBillingBody } from '../../src/connector/billing-body.js';
import type { Metrics } from '../../src/observability/metrics.js';
import type { BillingBudget } from '../../src/pipeline/billing-budget.js';
import type { BillingKeyBudgets } from '../../src/pipeline/billing-key-budgets.js';
import type { CustomersEnsured } from '../../src/pipeline/customers-ensured.js';
import type { FreshnessSamples } from '../../src/pipeline/freshness-samples.js';
import type { InFlight } from '../../src/pipeline/in-flight.js';
import type { LeaseKeeper } from '../../src/pipeline/lease-keeper.js';
import type { Ledger, LedgerEntry } from '../../src/pipeline/ledger.js';
import type { Quarantine } from '../../src/pipeline/quarantine.js';
import type { RecordHistory } from '../../src/pipeline/record-history.js';
import type { UpsertState } from '../../src/pipeline/upsert-state.js';
import type { BillingBreaker } from '../admission/billing-outage.js';
import type { ConnectionGate } from '../admission/connection-gate.js';
import type { Deferral } from '../admission/defer.js';
import type { UpsertJobData } from '../catalog.js';
import type { ReviewHelpers } from './hold-for-review.js';

export type UpsertBillingClient = Pick<
  BillingClient,
  | 'upsertInvoice'
  | 'upsertCreditNote'
  | 'addInvoiceAttachment'
  | 'addCreditNoteAttachment'
  | 'searchCustomers'
  | 'createCustomer'
  | 'listInvoices'
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

/** A record of an upsert job with its body checked by billing's schema, ready to begin. */
export interface PreparedRecord {
  data: UpsertJobData;
  parsed: ReturnType<typeof parseBillingBody>;
  /** The buyer the body names: ensured in billing before the record is written. */
  buyer?: CustomerDetailsInput;
}

/** One record's upsert, as each of its steps sees it. */
export interface UpsertRun {
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

/** A record's body as billing's schema accepted it. */
export type CheckedBody = NonNullable<PreparedRecord['parsed']['data']>;
