import type { DocumentLinker } from '../../src/documents/document-links.js';
import type { Job, Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { AppConfig } from '../../src/config.js';
import type { EntityName } from '../../src/connector/entities.js';
import type { Stream } from '../../src/connector/types.js';
import type { Metrics } from '../../src/observability/metrics.js';
import type { BackfillRuns } from '../../src/pipeline/backfill-runs.js';
import type { Checkpoints } from '../../src/pipeline/checkpoints.js';
import type { InFlight } from '../../src/pipeline/in-flight.js';
import type { LeaseKeeper } from '../../src/pipeline/lease-keeper.js';
import type { Ledger } from '../../src/pipeline/ledger.js';
import type { Outages } from '../../src/pipeline/outages.js';
import type { Quarantine } from '../../src/pipeline/quarantine.js';
import type { ScratchIdSet } from '../../src/pipeline/reconcile-state.js';
import type { RecordLock } from '../../src/pipeline/record-lock.js';
import type { SyncStatus } from '../../src/pipeline/sync-status.js';
import type { WebhookEvents } from '../../src/pipeline/webhook-events.js';
import type { WebhookHealth } from '../../src/pipeline/webhook-health.js';
import type { QuotaLane } from '../../src/waits/vendor-waits.js';
import type { ConnectionGate } from '../admission/connection-gate.js';
import type { PullPayload } from '../catalog.js';
import type { ConnectionSlotsPolicy } from '../admission/connection-slots-policy.js';
import type { ConnectionHandle } from '../runtime.js';

/** What a pull job uses, and nothing else (built by makeJobHelpers). */
export interface PullHelpers {
  logger: Logger;
  metrics: Metrics;
  config: {
    sync: Pick<
      AppConfig['sync'],
      'backlogHighWater' | 'upsertBatchSize' | 'upsertConcurrency' | 'vendorOutageRetrySeconds' | 'quotaWaitInPlaceMs'
    >;
  };
  jobSlots?: ConnectionSlotsPolicy;
  /** The process's lease keeper: renews the job's connection slot and the locks it takes. */
  leases?: LeaseKeeper;
  /** Holds back the jobs of a paused connection (jobs/admission/connection-gate.ts). */
  connectionGate?: ConnectionGate;
  outages: Pick<Outages, 'markDown' | 'markUp'>;
  connection(id: string): ConnectionHandle;
  locks: Pick<RecordLock, 'tryAcquireIncrementalPull'>;
  checkpoints: Pick<Checkpoints, 'read' | 'save' | 'getWindow' | 'setWindow'>;
  ledger: Pick<Ledger, 'getMany' | 'markSourceDeleted' | 'scan'>;
  /** A scratch set of ids in Redis for one run (a deletes sweep's listing of the source). */
  scratchIds(connection: string, name: string): ScratchIdSet;
  quarantine: Pick<Quarantine, 'put' | 'clear'>;
  syncStatus: Pick<SyncStatus, 'recordSuccess' | 'recordLastError'>;
  backfillRuns: Pick<BackfillRuns, 'trackUpserts'>;
  inFlight: Pick<InFlight, 'track' | 'versions' | 'total'>;
  /** Every configured connection (read at each use: a config reload changes them). */
  connectionIds(): string[];
  queues: { upsert: Pick<Queue, 'addBulk' | 'getJobCounts'> };
  /** What webhook deliveries announced: a targeted read's batch, and what the safety-net pull checks against. */
  webhookEvents?: Pick<WebhookEvents, 'claim' | 'finish' | 'unannounced'>;
  webhookHealth?: Pick<WebhookHealth, 'noteSafetyNetPull' | 'read'>;
  /** The connection's document links, read at each use (`http.publicUrl` reloads); absent or undefined: none. */
  documentLinker?(connection: string): DocumentLinker | undefined;
}

export interface PullResult {
  pulled: number;
  enqueued: number;
  unchanged: number;
  /** Records the source holds that billing does not take (a supplier-only contact): counted, not quarantined. */
  notForBilling?: number;
  /** Drafts in the ERP (not receivables yet) skipped under `syncDrafts: false`. */
  drafts?: number;
  quarantined: number;
  deleted: number;
  pages: number;
  cursor: string | null;
  /** A safety-net pull of a connection with webhooks: changes it found that no delivery announced. */
  unannounced?: number;
}

/** One pull job's read of its stream: what each of its steps uses. */
export interface PullRun {
  rt: PullHelpers;
  job: Pick<Job, 'updateProgress'>;
  data: PullPayload;
  conn: string;
  entity: EntityName;
  handle: ConnectionHandle;
  stream: Stream<any, any, any>;
  /** The read stops at now − settle delay. */
  until: Date;
  /** A backfill window's checkpoint key; none for an incremental pull. */
  windowKey?: string;
  /** Whose read this is, for the order of quota waits: set at the start, a first sync's found reading its checkpoint. */
  lane?: QuotaLane;
  signal?: AbortSignal;
  log: Logger;
}
