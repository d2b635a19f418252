import { cursorMsOf } from '../../src/connector/cursor-ms.js';
import type { EntityName } from '../../src/connector/entities.js';
import type { MapContext, SourceRecord, StreamPage, StreamState } from '../../src/connector/types.js';
import { Ledger, type LedgerEntry } from '../../src/pipeline/ledger.js';
import { historyLane } from '../../src/waits/vendor-waits.js';
import { CREDIT_NOTE_PRIORITY_OFFSET, PRIORITY } from '../catalog.js';
import { setDraftAside } from './draft-record.js';
import { batchUpserts, enqueueUpserts, upsertJobId, type UpsertJob } from '../upsert/enqueue-upserts.js';
import { mapForUpsert } from './map-for-upsert.js';
import type { PullHelpers, PullResult, PullRun } from './types.js';
import { classifyMapped, classifyRecord } from './classify-record.js';
import { countUnannounced, noteSafetyNet } from './safety-net.js';
import { waitForBacklog } from './wait-for-backlog.js';
import { longReadOf, progressGauges, pullTotal, type PullJobProgress } from './pull-total.js';

/** Where a run starts, and how it saves where it got to. */
interface StartingPoint {
  state: StreamState;
  /** No checkpoint yet: this incremental pull is the stream's first sync. */
  firstSync: boolean;
  save(next: StreamState): Promise<void>;
}

/** A pull that has read nothing yet. */
export const EMPTY: Omit<PullResult, 'cursor'> = {
  pulled: 0,
  enqueued: 0,
  unchanged: 0,
  quarantined: 0,
  deleted: 0,
  pages: 0,
};

/**
 * The stream read page by page: each page's records decided and enqueued, then (sorted streams only) the
 * checkpoint; at the end, the checkpoint moves to `until` and the run counts as the stream's last success.
 */
export async function pullStream(run: PullRun): Promise<PullResult> {
  const start = await startingPoint(run);
  if (!start) return { ...EMPTY, cursor: 'done' };
  const ctx = readContext(run);
  const result: PullResult = { ...EMPTY, cursor: start.state.cursor };
  // What the stream's last page said besides its cursor (Tally's AlterID marks) is kept at the end.
  let last: StreamState = start.state;
  const lookups = run.stream.lookups ? await run.stream.lookups(ctx) : {};
  const mapCtx: MapContext = {
    connectionId: run.conn,
    originSource: run.handle.config.originSource,
    baseCurrency: run.handle.billing.baseCurrency,
    fields: run.handle.config.fields,
    lookups,
  };
  const kind = longReadOf(run, start.firstSync);
  const totals = pullTotal(run, kind, ctx);
  const gauges = progressGauges(run, kind, Date.now());
  try {
    for await (const page of run.stream.read(ctx, start.state)) {
      await pullPage(run, page, mapCtx, result);
      // The page's jobs are durable in Redis: now the checkpoint may move (sorted streams only).
      if (run.stream.isSorted) await start.save(page.state);
      result.cursor = page.state.cursor;
      last = page.state;
      const total = await totals.afterPage(page, result.pages);
      const progress: PullJobProgress = { pages: result.pages, pulled: result.pulled, enqueued: result.enqueued };
      await run.job.updateProgress(total ? { ...progress, total } : progress);
      gauges.set(result.pulled, total);
      await waitForBacklog(run.rt, run.signal);
    }
    return await finishRead(run, start, result, last);
  } finally {
    gauges.clear();
  }
}

/** A window already done returns nothing: there is nothing to read. A stream without a checkpoint reads history. */
async function startingPoint(run: PullRun): Promise<StartingPoint | undefined> {
  const { rt, conn, entity, stream, windowKey, handle, log } = run;
  if (windowKey) {
    const state =
      (await rt.checkpoints.getWindow<StreamState>(conn, entity, windowKey)) ?? stream.initialState(undefined);
    if (state.cursor === 'done') return undefined;
    return { state, firstSync: false, save: (next) => rt.checkpoints.setWindow(conn, entity, windowKey, next) };
  }
  // The incremental checkpoint's rewind count as read: a repair that rewinds the stream while this
  // pull runs makes this pull's saves refused, so the rewind is not overwritten (Checkpoints).
  const { checkpoint: cp, rewinds: rewindsSeen } = await rt.checkpoints.read<StreamState>(conn, entity);
  // A first sync: its calls yield the vendor quota to announced reads (src/waits/vendor-waits.ts, QuotaLane).
  if (!cp && run.lane === 'current') run.lane = historyLane(Boolean(handle.config.webhooks));
  return {
    state: cp ? rewind(cp.state, handle.config.lookbackSeconds) : stream.initialState(undefined),
    firstSync: !cp,
    async save(next) {
      if (!(await rt.checkpoints.save(conn, entity, next, { rewindsSeen })))
        log.info('the stream was rewound while this pull ran; its checkpoint stays rewound');
    },
  };
}

/**
 * What the pipeline holds lets a stream skip unchanged rows; only when reads stay a second or more
 * behind the vendor's clock, so an edit in the second a row was read always shows as a later time.
 */
function readContext({ rt, conn, handle, log, signal, until, data }: PullRun) {
  return handle.readContext({
    logger: log,
    signal,
    until,
    window: data.window,
    // A reread (backfill --reread) reads every record again: nothing is skipped for its held version.
    ...(handle.config.settleDelaySeconds >= 1 && !data.reread
      ? { knownVersions: (e: EntityName, ids: readonly string[]) => knownVersions(rt, conn, e, ids) }
      : {}),
  });
}

/** One page: counted, each record decided against its ledger entry, the upserts enqueued in one go. */
export async function pullPage(
  run: PullRun,
  page: StreamPage<any, StreamState>,
  mapCtx: MapContext,
  result: PullResult,
): Promise<void> {
  const { rt, conn, entity } = run;
  result.pages++;
  if (page.knownSkipped) {
    result.unchanged += page.knownSkipped;
    rt.metrics.recordsSkipped.inc({ connection: conn, entity, reason: 'unchanged' }, page.knownSkipped);
  }
  result.pulled += page.records.length;
  rt.metrics.recordsPulled.inc({ connection: conn, entity }, page.records.length);
  const ledger = await rt.ledger.getMany(
    conn,
    entity,
    page.records.map((r) => r.id),
  );
  const jobs: UpsertJob[] = [];
  for (const [i, record] of page.records.entries()) {
    const job = await pullRecord(run, record, ledger[i], mapCtx, result);
    if (job) jobs.push(job);
  }
  if (jobs.length) await enqueuePage(run, jobs, result);
  await countUnannounced(run, jobs, result);
}

/** One record, as classifyRecord and classifyMapped decide: counted, and its upsert job when it needs one. */
async function pullRecord(
  { rt, conn, entity, stream, handle, data, lane }: PullRun,
  record: SourceRecord<any>,
  known: LedgerEntry | undefined,
  mapCtx: MapContext,
  result: PullResult,
): Promise<UpsertJob | undefined> {
  const decision = classifyRecord(record, known, handle.config);
  if (decision.kind === 'not-for-billing') {
    result.notForBilling = (result.notForBilling ?? 0) + 1;
    rt.metrics.recordsSkipped.inc({ connection: conn, entity, reason: 'not-for-billing' });
    return undefined;
  }
  if (decision.kind === 'draft') {
    if ((await setDraftAside(rt, conn, entity, record, known)) === 'quarantined') result.quarantined++;
    else result.drafts = (result.drafts ?? 0) + 1;
    return undefined;
  }
  if (decision.kind === 'deleted') {
    if (decision.markSourceDeleted)
      await rt.ledger.markSourceDeleted(conn, entity, record.id, record.version, { bumpVersion: true });
    result.deleted++;
    return undefined;
  }
  const mapped = await mapForUpsert(rt, conn, entity, stream, record, mapCtx);
  const next = classifyMapped(record, known, mapped);
  if (next.kind === 'unmappable' || !mapped.ok) {
    result.quarantined++;
    return undefined;
  }
  if (next.kind === 'unchanged' || next.kind === 'stale') {
    result.unchanged++;
    rt.metrics.recordsSkipped.inc({ connection: conn, entity, reason: next.kind });
    if (next.kind === 'unchanged') await rt.quarantine.clear(conn, entity, record.id, record.version);
    return undefined;
  }
  const jobId = upsertJobId(conn, entity, record.id, mapped.hash);
  return {
    name: 'upsert',
    // A read by id a webhook announced: the record's history and its freshness say so.
    data: data.webhook ? { ...mapped.data, path: 'webhook' } : mapped.data,
    opts: {
      jobId: next.repair ? `${jobId}-r${Date.now().toString(36)}` : jobId,
      priority:
        (data.window ? PRIORITY.backfill : lane === 'history' ? PRIORITY.history : PRIORITY.incremental) +
        (entity === 'credit-notes' ? CREDIT_NOTE_PRIORITY_OFFSET : 0),
    },
  };
}

/**
 * Batches no larger than what spreads the page over every upsert slot: a small incremental page keeps
 * the parallelism of one job per record; a page of at least batch size × upsertConcurrency records gets
 * full batches.
 */
async function enqueuePage({ rt, conn, entity, data }: PullRun, jobs: UpsertJob[], result: PullResult): Promise<void> {
  const size = Math.min(rt.config.sync.upsertBatchSize, Math.ceil(jobs.length / rt.config.sync.upsertConcurrency));
  const queued = batchUpserts(jobs, size, data.runId);
  await enqueueUpserts(rt, queued);
  if (data.runId) {
    // The run's own upserts, which `erp-sync backfill` waits for. Added after the jobs exist (an id
    // whose job does not exist counts as finished) and before this pull completes (the run is
    // not complete before all its pulls are).
    await rt.backfillRuns.trackUpserts(
      data.runId,
      queued.map((j) => j.opts.jobId),
    );
  }
  result.enqueued += jobs.length;
  rt.metrics.recordsEnqueued.inc({ connection: conn, entity }, jobs.length);
}

/**
 * Whole read done: the next incremental read starts at `until` (minus the lookback then), with what the
 * last page's state said besides its cursor (a stream that ties instants to its own counter, as Tally's
 * AlterID marks do, keeps them; for every other stream the last page's state is its cursor alone).
 */
async function finishRead(
  run: PullRun,
  start: StartingPoint,
  result: PullResult,
  last: StreamState,
): Promise<PullResult> {
  const { rt, conn, entity, until, windowKey, log } = run;
  const cursor = windowKey ? 'done' : until.toISOString();
  await start.save({ ...start.state, ...last, cursor });
  if (!windowKey) {
    rt.metrics.lastSuccess.set({ connection: conn, entity }, Date.now() / 1000);
    rt.metrics.checkpointLag.set({ connection: conn, entity }, (Date.now() - until.getTime()) / 1000);
    await rt.syncStatus.recordSuccess(conn, entity);
    await noteSafetyNet(run, result);
  }
  log.info(result, 'pull finished');
  return { ...result, cursor };
}

/**
 * What the pipeline holds of each record: the version being written (in flight) or else the one written
 * (ledger); nothing for a record whose repair was asked, so it is read again.
 */
async function knownVersions(
  rt: Pick<PullHelpers, 'ledger' | 'inFlight'>,
  conn: string,
  entity: EntityName,
  ids: readonly string[],
) {
  const [flying, written] = await Promise.all([
    rt.inFlight.versions(conn, entity, ids),
    rt.ledger.getMany(conn, entity, [...ids]),
  ]);
  return ids.map((_, i) => {
    const w = written[i];
    const f = flying[i];
    if (Ledger.repairRequested(w)) return undefined;
    if (f !== undefined && (w === undefined || f > w.version)) return f;
    return w?.version;
  });
}

/** The checkpoint's cursor moved back by the lookback; a cursor without its zone is refused, never read as host time. */
function rewind(state: StreamState, lookbackSeconds: number): StreamState {
  if (!state.cursor) return state;
  const ms = cursorMsOf(state.cursor, { source: 'checkpoint', operation: 'pull' })!;
  return { ...state, cursor: new Date(ms - lookbackSeconds * 1000).toISOString() };
}
