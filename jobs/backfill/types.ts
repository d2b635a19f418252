import type { FlowProducer, Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { AppConfig } from '../../src/config.js';
import type { Metrics } from '../../src/observability/metrics.js';
import type { jobOptions, PullPayload } from '../catalog.js';
import type { ConnectionHandle } from '../runtime.js';

/** What the backfill parent job uses: it only sums its children's results. */
export interface BackfillHelpers {
  logger: Logger;
  metrics: Metrics;
}

/** What adding a backfill run uses. */
export interface BackfillScheduling {
  config: { sync: Pick<AppConfig['sync'], 'backfillWindowDays'> };
  connection(id: string): Pick<ConnectionHandle, 'config' | 'connector'>;
  queues: { backfill: Pick<Queue, 'getJob'>; pull: Pick<Queue, 'getJob'> };
  flow: Pick<FlowProducer, 'add'>;
  options: Pick<ReturnType<typeof jobOptions>, 'pull' | 'backfill'>;
}

export interface BackfillRequest {
  connectionId: string;
  entities: Array<PullPayload['entity']>;
  from: string;
  to: string;
  /** Read every record of the range again, even those the pipeline holds at the same version (PullPayload.reread). */
  reread?: boolean;
}

export interface BackfillSummary {
  windows: number;
  pulled: number;
  enqueued: number;
  unchanged: number;
  quarantined: number;
  /** Records the source holds that billing does not take (supplier-only contacts). */
  notForBilling?: number;
  /** Windows that failed for good (a permanent vendor error, their attempts spent): which, and why. */
  failedWindows?: Array<{ window: string; reason: string }>;
}
