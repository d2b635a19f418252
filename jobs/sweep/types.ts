import type { Queue } from 'bullmq';
import type { AppConfig } from '../../src/config.js';
import type { Metrics } from '../../src/observability/metrics.js';
import type { InFlight } from '../../src/pipeline/in-flight.js';
import type { Ledger } from '../../src/pipeline/ledger.js';
import type { RecordHistory } from '../../src/pipeline/record-history.js';
import type { SyncStatus } from '../../src/pipeline/sync-status.js';
import type { FailedUpsertHelpers } from '../upsert/failed-upsert.js';

/** What the sweep uses, and nothing else (built by makeJobHelpers). */
export interface SweepHelpers extends FailedUpsertHelpers {
  metrics: Metrics;
  config: { sync: Pick<AppConfig['sync'], 'sweepGraceSeconds'> };
  connectionIds(): string[];
  inFlight: Pick<InFlight, 'scan' | 'settle' | 'track' | 'count' | 'get' | 'handOver'>;
  ledger: Pick<Ledger, 'getMany'>;
  syncStatus: Pick<SyncStatus, 'recordSweep'>;
  queues: { upsert: Pick<Queue, 'getJob' | 'getJobState' | 'addBulk'> };
  /** Record history: the scheduled sweep prunes a slice of its buckets per connection each run. */
  recordHistory?: Pick<RecordHistory, 'prune'>;
  /** One sample of the connection's trend series for the console's charts (sample-trends.ts). */
  sampleTrends?: (connection: string) => Promise<void>;
}

export type SweepAction = 're-enqueued' | 'quarantined';

export interface SweepResult {
  connection: string;
  /** In-flight entries seen, and those old enough to be looked at. */
  inFlight: number;
  looked: number;
  /** Entries whose outcome had happened without settling them (a crash between the two): settled now. */
  settled: number;
  /** Records that were about to be lost without a trace, and what the sweep did with each. */
  recovered: Array<{ entity: string; erpId: string; version: string; action: SweepAction; detail: string }>;
}
