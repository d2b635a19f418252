import { createHash } from 'node:crypto';
import { dayWindows } from '../src/billing/dates.js';
import { BackfillPayload, type PullPayload, PRIORITY, QUEUES } from './catalog.js';
import { defineJob } from './define-job.js';
import type { PullResult } from './pull.js';
import type { Runtime } from './runtime.js';

export interface BackfillRequest {
  connectionId: string;
  entities: Array<PullPayload['entity']>;
  from: string;
  to: string;
}

export interface BackfillSummary {
  windows: number;
  pulled: number;
  enqueued: number;
  unchanged: number;
  quarantined: number;
}

/**
 * The same request always gets the same run id, so re-running a backfill resumes it: jobs already
 * done keep their ids (BullMQ ignores re-adds) and each window resumes from its own checkpoint.
 */
export function backfillRunId(req: BackfillRequest): string {
  const h = createHash('sha256')
    .update(JSON.stringify([req.connectionId, [...req.entities].sort(), req.from, req.to]))
    .digest('hex');
  return `bf-${req.connectionId}-${h.slice(0, 12)}`;
}

/**
 * Adds a backfill as a BullMQ flow: one parent, one `pull` child per (entity, window), at a lower
 * priority than incremental pulls. Streams that cannot filter by document date (customers) get one
 * child for the whole range.
 */
export async function addBackfill(
  rt: Runtime,
  req: BackfillRequest,
  options: { restart?: boolean } = {},
): Promise<{ runId: string; children: number; alreadyDone: boolean }> {
  const { connector, config: c } = rt.connection(req.connectionId);
  const runId = options.restart ? `${backfillRunId(req)}-${Date.now().toString(36)}` : backfillRunId(req);
  const existing = await rt.queues.backfill.getJob(runId);
  if (existing && (await existing.isCompleted())) return { runId, children: 0, alreadyDone: true };
  if (existing && (await existing.isFailed())) await existing.remove({ removeChildren: false });
  const windows = dayWindows(req.from, req.to, rt.config.sync.backfillWindowDays);
  const children = [];
  for (const entity of req.entities) {
    if (!c.entities.includes(entity)) continue;
    const stream = connector.streams[entity];
    // The incremental checkpoint is left alone. Setting it to "now" would lose every record modified
    // before the backfill whose document date lies outside its window (post-dated invoices, or a
    // vendor's local "tomorrow" — e.g. QuickBooks TxnDate in IST after 18:30 UTC). The first incremental
    // read starts from the beginning instead; what the backfill wrote is skipped by its content hash.
    const ws = stream.supportsWindow ? windows : [{ from: req.from, to: req.to }];
    for (const w of ws) {
      children.push({
        name: 'pull',
        queueName: QUEUES.pull,
        data: { connectionId: req.connectionId, entity, window: w, runId } satisfies PullPayload,
        opts: { ...rt.options.pull, jobId: `${runId}-${entity}-${w.from}`, priority: PRIORITY.backfill, removeOnComplete: { age: 7 * 24 * 3600 } },
      });
    }
  }
  await rt.flow.add({
    name: 'backfill',
    queueName: QUEUES.backfill,
    data: { ...req, runId } satisfies BackfillPayload,
    opts: { jobId: runId, ...rt.options.backfill, removeOnComplete: { age: 7 * 24 * 3600 } },
    children,
  });
  return { runId, children: children.length, alreadyDone: false };
}

/**
 * The summary of a completed run, read from a fresh copy of the parent job: a copy fetched before its
 * completion carries no return value even when its state, read afterwards, says completed.
 */
export async function readBackfillSummary(rt: Runtime, runId: string): Promise<BackfillSummary> {
  const done = await rt.queues.backfill.getJob(runId);
  const value = done?.returnvalue as BackfillSummary | null | undefined;
  if (!value || typeof value.enqueued !== 'number') {
    throw new Error(`backfill ${runId} completed but its summary is missing (the job ${done ? 'has no return value' : 'was removed'})`);
  }
  return value;
}

/*
 * Drops the finished ids from a run's set: completed, failed for good, or gone (removed by retention).
 * KEYS: run set, completed zset, failed zset   ARGV: job key prefix, ids...
 * The job hashes are named from the prefix, as BullMQ's own scripts do (one hash slot with a {tag} prefix).
 */
const PRUNE = `
local removed = 0
for i = 2, #ARGV do
  local id = ARGV[i]
  if redis.call('exists', ARGV[1] .. id) == 0 or redis.call('zscore', KEYS[2], id) or redis.call('zscore', KEYS[3], id) then
    redis.call('srem', KEYS[1], id)
    removed = removed + 1
  end
end
return removed`;

/**
 * How many upserts this run enqueued are not finished yet (waiting, delayed, active): only the run's
 * own jobs count, so a backfill does not wait for other connections' traffic. Finished ids are dropped
 * from the run's set as they are found, one script call per 1,000 ids, so each call costs about the
 * number of jobs still pending (bounded by sync.backlogHighWater) plus those finished since the last.
 */
export async function runBacklog(rt: Runtime, runId: string): Promise<number> {
  const runKey = rt.keys.runUpserts(runId);
  const q = rt.queues.upsert;
  let cursor = '0';
  do {
    const [next, ids] = await rt.redis.sscan(runKey, cursor, 'COUNT', 1000);
    cursor = next;
    if (ids.length) await rt.redis.eval(PRUNE, 3, runKey, q.keys.completed!, q.keys.failed!, q.toKey(''), ...ids);
  } while (cursor !== '0');
  return rt.redis.scard(runKey);
}

/** The parent runs once every window is done: it sums the children's results. */
export function backfillProcessor(rt: Runtime) {
  return defineJob(QUEUES.backfill, BackfillPayload, rt, async ({ job, log }): Promise<BackfillSummary> => {
    const values = Object.values(await job.getChildrenValues()) as PullResult[];
    const sum: BackfillSummary = { windows: values.length, pulled: 0, enqueued: 0, unchanged: 0, quarantined: 0 };
    for (const v of values) {
      sum.pulled += v.pulled;
      sum.enqueued += v.enqueued;
      sum.unchanged += v.unchanged;
      sum.quarantined += v.quarantined;
    }
    log.info(sum, 'backfill finished');
    return sum;
  });
}
