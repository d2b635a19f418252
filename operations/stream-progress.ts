import type { Job } from 'bullmq';
import type { Runtime } from '../jobs/runtime.js';
import { secondsLeftOf, type PullJobProgress, type PullTotal } from '../jobs/pull/pull-total.js';

/** What a long read is: a stream's first sync, a backfill window, a repair's pull, or an incremental pull. */
export type ProgressKind = 'first-sync' | 'backfill' | 'repair' | 'incremental';

/**
 * A pull running now for one stream of a connection, from what its job already reports to BullMQ
 * (jobs/pull/pull-stream.ts: pages, records pulled and enqueued after each page) and, for a backfill,
 * its run's windows done of the windows it announced (the flow's children).
 */
export interface StreamProgress {
  entity: string;
  kind: ProgressKind;
  jobId: string;
  /** When this pull started (its current attempt). */
  since: string;
  pages: number;
  /** Records read from the source so far, and enqueued for billing. */
  pulled: number;
  enqueued: number;
  /** Records read a second since the pull started; null before the first page. */
  recordsPerSecond: number | null;
  /** A backfill window's document dates (calendar days). */
  window: { from: string; to: string } | null;
  /**
   * Records the read will hand out: the vendor's announced total (`vendor`), else the count the quota
   * projection's estimate makes (`estimate`); null until known, and for an incremental pull.
   */
  total: PullTotal | null;
  /** A backfill run's windows: finished, of all it announced; null for other reads. */
  windows: { done: number; total: number } | null;
  /** Time left at the pace so far: a backfill's windows, else the records left of the total; null without a total. */
  secondsLeft: number | null;
}

type ProgressRuntime = Pick<Runtime, 'queues'>;
interface PullJobData {
  connectionId: string;
  entity: string;
  window?: { from: string; to: string };
  runId?: string;
}

/** Active pull jobs looked at per read: more than any deployment runs at once (slots per connection × workers). */
const ACTIVE_SCAN = 500;

const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * Each pull running now for `connection`. `firstSync(entity)`: whether the stream has never completed
 * a pull (no checkpoint), so an incremental pull of it is its first sync. Reads Redis only (BullMQ's
 * job hashes), never the vendor.
 */
export async function streamProgress(
  rt: ProgressRuntime,
  connection: string,
  firstSync: (entity: string) => boolean,
  now = Date.now(),
): Promise<StreamProgress[]> {
  const active = (await rt.queues.pull.getJobs(['active'], 0, ACTIVE_SCAN - 1)) as Array<Job<PullJobData> | undefined>;
  const out: StreamProgress[] = [];
  for (const job of active) {
    if (!job || job.data?.connectionId !== connection || !job.id) continue;
    const p = (typeof job.progress === 'object' ? job.progress : {}) as PullJobProgress;
    const started = job.processedOn ?? job.timestamp;
    const elapsed = Math.max(0, (now - started) / 1000);
    const pulled = count(p.pulled);
    const windows = job.data.window ? await backfillWindows(rt, job) : null;
    const rate = elapsed > 0 && pulled > 0 ? Math.round((pulled / elapsed) * 10) / 10 : null;
    const total = p.total && typeof p.total.records === 'number' ? p.total : null;
    out.push({
      entity: job.data.entity,
      kind: job.data.window
        ? 'backfill'
        : job.data.runId
          ? 'repair'
          : firstSync(job.data.entity)
            ? 'first-sync'
            : 'incremental',
      jobId: job.id,
      since: new Date(started).toISOString(),
      pages: count(p.pages),
      pulled,
      enqueued: count(p.enqueued),
      recordsPerSecond: rate,
      window: job.data.window ?? null,
      total,
      windows: windows && { done: windows.done, total: windows.total },
      secondsLeft: windows ? windows.secondsLeft : secondsLeftOf(pulled, total, rate),
    });
  }
  return out.sort((a, b) => a.entity.localeCompare(b.entity) || a.since.localeCompare(b.since));
}

/** A backfill window's run: its windows finished of all (the flow parent's children), and the time left at its pace. */
async function backfillWindows(
  rt: ProgressRuntime,
  job: Job<PullJobData>,
): Promise<{ done: number; total: number; secondsLeft: number | null } | null> {
  const parentId = job.parent?.id;
  if (!parentId) return null;
  const parent = await rt.queues.backfill.getJob(parentId);
  if (!parent) return null;
  const c = await parent.getDependenciesCount({ processed: true, unprocessed: true, failed: true, ignored: true });
  const done = count(c.processed) + count(c.failed) + count(c.ignored);
  const total = done + count(c.unprocessed);
  const elapsed = Math.max(0, (Date.now() - parent.timestamp) / 1000);
  const secondsLeft = done > 0 && total > done ? Math.round((elapsed * (total - done)) / done) : null;
  return { done, total, secondsLeft };
}
