import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { AppConfig } from '../../src/config.js';
import type { Metrics } from '../../src/observability/metrics.js';
import type { Checkpoints } from '../../src/pipeline/checkpoints.js';
import type { LeaseKeeper } from '../../src/pipeline/lease-keeper.js';
import type { Ledger } from '../../src/pipeline/ledger.js';
import type { Quarantine } from '../../src/pipeline/quarantine.js';
import type { ReconcileState } from '../../src/pipeline/reconcile-state.js';
import type { ReviewQueue } from '../../src/pipeline/review-queue.js';
import type { ConnectionGate } from '../admission/connection-gate.js';
import type { ConnectionSlotsPolicy } from '../admission/connection-slots-policy.js';
import type { ConnectionHandle } from '../runtime.js';
import type { SweepResult } from '../sweep/types.js';
import type { DriftKind, DriftReport } from './drift.js';
import type { RepairByIdHelpers, RepairOutcome } from './repair-by-id.js';

/** What a reconciliation uses, and nothing else (the reconcile job's helpers; the CLI passes its runtime). */
export interface ReconcileHelpers {
  logger: Logger;
  metrics: Metrics;
  config: { reconcile: Pick<AppConfig['reconcile'], 'timeZone'>; sync?: Pick<AppConfig['sync'], 'quotaWaitInPlaceMs'> };
  /** The worker's reconcile job: at most sync.maxJobsPerConnection jobs of one connection at once. */
  jobSlots?: ConnectionSlotsPolicy;
  /** The process's lease keeper: renews the job's connection slot and the locks it takes. */
  leases?: LeaseKeeper;
  /** Holds back the jobs of a paused connection (jobs/admission/connection-gate.ts). */
  connectionGate?: ConnectionGate;
  /** The connection, with the billing company it writes to: its client (its keys) and the budget its listing calls take slots from. */
  connection(id: string): ConnectionHandle;
  ledger: Pick<Ledger, 'getMany' | 'scan' | 'markSourceDeleted' | 'requestRepair' | 'correctVersion'>;
  checkpoints: Pick<Checkpoints, 'rewindCheckpoint'>;
  quarantine: Pick<Quarantine, 'get' | 'put'>;
  /** Records held for review before write: reported as `held`, not as missing or stale (absent: none held). */
  review?: Pick<ReviewQueue, 'get'>;
  reconcileState: Pick<ReconcileState, 'recordVerdicts' | 'recordRun' | 'scratchSet'>;
  queues: { pull: Pick<Queue, 'add'>; upsert: Pick<Queue, 'addBulk'> };
  /** What a repair by id enqueues through (repair-by-id.ts). */
  inFlight: RepairByIdHelpers['inFlight'];
  backfillRuns: RepairByIdHelpers['backfillRuns'];
  recordHistory?: RepairByIdHelpers['recordHistory'];
  documentLinker?: RepairByIdHelpers['documentLinker'];
  /**
   * The in-flight sweep of the connection (jobs/sweep/sweep-processor.ts): a reconcile checks the records still on their
   * way to billing, not only billing's window. The worker's reconcile job and the CLI pass it.
   */
  sweep?: (connection: string) => Promise<SweepResult>;
}

export interface ReconcileRequest {
  connectionId: string;
  /** Inclusive days, in the configured time zone (reconcile.timeZone, UTC by default). */
  from: string;
  to: string;
  deep?: boolean;
  repair?: boolean;
}

export interface ReconcileResult {
  connection: string;
  from: string;
  to: string;
  deep: boolean;
  counts: Record<DriftKind, number>;
  total: number;
  needsPerson: number;
  checked: { billing: number; ledger: number; source: number };
  items: DriftReport['items'];
  truncated: number;
  /** Records still on their way to billing when the run ended (the in-flight index), when it was checked. */
  inFlight?: number;
  /**
   * What a repair enqueued: the run id its upserts are tracked under, and the pull jobs (none for a repair
   * by id). A repair by id also says what it did per record and how many vendor calls it made.
   */
  repaired?: {
    requeued: number;
    pulls: string[];
    runId: string;
    pullJobIds: string[];
    by?: 'id' | 'rewind';
    records?: RepairOutcome[];
    vendorCalls?: number;
  };
  seconds: number;
}
