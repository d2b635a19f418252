import { DelayedError, type Queue, RateLimitError } from 'bullmq';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { EntityName } from '../src/connector/entities.js';
import type { MapContext, StreamState } from '../src/connector/types.js';
import type { AppConfig } from '../src/config.js';
import type { Metrics } from '../src/observability/metrics.js';
import type { BackfillRuns } from '../src/pipeline/backfill-runs.js';
import type { Checkpoints } from '../src/pipeline/checkpoints.js';
import { ParkedError, TransientError } from '../src/errors/index.js';
import type { Outages } from '../src/pipeline/outages.js';
import { Ledger } from '../src/pipeline/ledger.js';
import type { InFlight } from '../src/pipeline/in-flight.js';
import type { Quarantine } from '../src/pipeline/quarantine.js';
import type { LeaseKeeper } from '../src/pipeline/lease-keeper.js';
import type { RecordLock } from '../src/pipeline/record-lock.js';
import type { SyncStatus } from '../src/pipeline/sync-status.js';
import { withQuotaWaitPolicy } from '../src/pipeline/quota-wait-policy.js';
import { decideVendorFailure } from '../src/waits/vendor-waits.js';
import { CREDIT_NOTE_PRIORITY_OFFSET, PRIORITY, PullPayload, QUEUES } from './catalog.js';
import { defer } from './defer.js';
import { type ConnectionSlotsPolicy, defineJob } from './define-job.js';
import { mapForUpsert } from './map-for-upsert.js';
import { batchUpserts, enqueueUpserts, upsertJobId, type UpsertJob } from './enqueue-upserts.js';
import { setDraftAside } from './draft-record.js';
import type { ConnectionHandle } from './runtime.js';
import type { ConnectionGate } from './connection-gate.js';

/** What a pull job uses, and nothing else (built by makeJobHelpers). */
export interface PullHelpers {
  logger: Logger;
  metrics: Metrics;
  config: { sync: Pick<AppConfig['sync'], 'backlogHighWater' | 'upsertBatchSize' | 'upsertConcurrency' | 'vendorOutageRetrySeconds' | 'quotaWaitInPlaceMs'> };
  jobSlots?: ConnectionSlotsPolicy;
  /** The process's lease keeper: renews the job's connection slot and the locks it takes. */
  leases?: LeaseKeeper;
  /** Holds back the jobs of a paused connection (jobs/connection-gate.ts). */
  connectionGate?: ConnectionGate;
  outages: Pick<Outages, 'markDown' | 'markUp'>;
  connection(id: string): ConnectionHandle;
  locks: Pick<RecordLock, 'tryAcquireIncrementalPull'>;
  checkpoints: Pick<Checkpoints, 'read' | 'save' | 'getWindow' | 'setWindow'>;
  ledger: Pick<Ledger, 'getMany' | 'markSourceDeleted'>;
  quarantine: Pick<Quarantine, 'put' | 'clear'>;
  syncStatus: Pick<SyncStatus, 'recordSuccess' | 'recordLastError'>;
  backfillRuns: Pick<BackfillRuns, 'trackUpserts'>;
  inFlight: Pick<InFlight, 'track' | 'versions' | 'total'>;
  /** Every configured connection (read at each use: a config reload changes them). */
  connectionIds(): string[];
  queues: { upsert: Pick<Queue, 'addBulk' | 'getJobCounts'> };
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
}

/**
 * Reads one (connection, entity) stream from its checkpoint minus the lookback overlap up to
 * now − settle delay, page by page. Each page: map every record (failures to quarantine, never stopping
 * the page), skip content the ledger already holds, one addBulk of upsert jobs, and only then the
 * checkpoint (mid-run only for streams sorted by their cursor; otherwise at the end of the run).
 */
export function pullProcessor(rt: PullHelpers) {
  return defineJob(QUEUES.pull, PullPayload, rt, async ({ job, data, token, signal, log }): Promise<PullResult> => {
    const { connectionId: conn, entity, window } = data;
    const handle = rt.connection(conn);
    const { config: c, connector } = handle;
    const stream = connector.streams[entity];
    const now = Date.now();
    const until = new Date(now - c.settleDelaySeconds * 1000);
    const windowKey = window ? `${data.runId ?? 'adhoc'}-${window.from}-${window.to}` : undefined;

    // Two incremental pulls of one stream at once would only duplicate work (and could roll the
    // checkpoint back): the second one returns at once.
    const releasePull = windowKey ? async () => {} : await rt.locks.tryAcquireIncrementalPull(conn, entity, `job-${job.id}`);
    if (!releasePull && data.waitForRunning && token !== undefined) {
      // A repair's pull must read after the rewind: come back once the running pull is done, without using an attempt.
      return await defer(job, token, { reason: 'pull-running', at: Date.now() + 1_000 });
    }
    if (!releasePull) {
      log.info('an incremental pull of this stream is already running; skipped');
      return { pulled: 0, enqueued: 0, unchanged: 0, quarantined: 0, deleted: 0, pages: 0, cursor: null };
    }
    try {
      // Fair scheduling: a long wait for a vendor slot gives the worker slot back (the job is delayed until
      // its slot) when nothing is lost by it: before the first call, or on a stream whose progress is saved
      // page by page, or one that skips on its next start what it already handed over (`resumable`). A read
      // that would start over from nothing waits in place instead.
      let slots = 0;
      const result = await withQuotaWaitPolicy(
        {
          maxInPlaceWaitMs: rt.config.sync.quotaWaitInPlaceMs,
          deferrable: () => slots === 0 || stream.isSorted || stream.resumable === true,
          onSlot: () => void slots++,
        },
        pullStream,
      );
      await rt.outages.markUp(conn);
      return result;
    } catch (err) {
      // What `erp-sync status` shows next to "last success": why incremental pulls of this stream fail. Deferrals
      // (quota parking, rate limits) are not failures. Error messages carry no secrets (src/errors).
      if (!windowKey && !(err instanceof DelayedError) && !(err instanceof RateLimitError) && !(err instanceof ParkedError)) {
        await rt.syncStatus.recordLastError(conn, entity, err instanceof Error ? err.message : String(err));
      }
      // The vendor failed this pull twice in a row (each time after the call's own retries): an outage
      // (src/waits/vendor-waits.ts). The pull waits for it, without spending more attempts, until the vendor
      // answers; the outage is shown in metrics (erpsync_vendor_up) and `erp-sync status` until the next successful pull.
      const outageWait = decideVendorFailure(err instanceof TransientError, job.attemptsMade, Date.now(), rt.config.sync.vendorOutageRetrySeconds * 1000);
      if (outageWait?.kind === 'park') {
        const outage = await rt.outages.markDown(conn, (err as Error).message);
        throw new ParkedError(conn, outageWait.untilMs, {
          why: `vendor outage since ${new Date(outage.since).toISOString()}: ${(err as Error).message}`,
          cause: err,
        });
      }
      throw err;
    } finally {
      await releasePull();
    }

    async function pullStream(): Promise<PullResult> {
      let state: StreamState;
      // The incremental checkpoint's rewind count as read: a repair that rewinds the stream while this
      // pull runs makes this pull's saves refused, so the rewind is not overwritten (Checkpoints).
      let rewindsSeen = 0;
      if (windowKey) {
        state = (await rt.checkpoints.getWindow<StreamState>(conn, entity, windowKey)) ?? stream.initialState(undefined);
        if (state.cursor === 'done') return { pulled: 0, enqueued: 0, unchanged: 0, quarantined: 0, deleted: 0, pages: 0, cursor: 'done' };
      } else {
        const { checkpoint: cp, rewinds } = await rt.checkpoints.read<StreamState>(conn, entity);
        rewindsSeen = rewinds;
        state = cp ? rewind(cp.state, c.lookbackSeconds) : stream.initialState(undefined);
      }
      const saveState = async (next: StreamState): Promise<void> => {
        if (windowKey) await rt.checkpoints.setWindow(conn, entity, windowKey, next);
        else if (!(await rt.checkpoints.save(conn, entity, next, { rewindsSeen })))
          log.info('the stream was rewound while this pull ran; its checkpoint stays rewound');
      };

      // What the pipeline holds lets a stream skip unchanged rows; only when reads stay a second or more
      // behind the vendor's clock, so an edit in the second a row was read always shows as a later time.
      const ctx = handle.readContext({
        logger: log,
        signal,
        until,
        window,
        ...(c.settleDelaySeconds >= 1 ? { knownVersions: (e: EntityName, ids: readonly string[]) => knownVersions(rt, conn, e, ids) } : {}),
      });
      const result: PullResult = { pulled: 0, enqueued: 0, unchanged: 0, quarantined: 0, deleted: 0, pages: 0, cursor: state.cursor };
      const lookups = stream.lookups ? await stream.lookups(ctx) : {};
      const mapCtx: MapContext = { connectionId: conn, originSource: c.originSource, baseCurrency: handle.billing.baseCurrency, lookups };
      for await (const page of stream.read(ctx, state)) {
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
          const known = ledger[i];
          if (record.notForBilling) {
            result.notForBilling = (result.notForBilling ?? 0) + 1;
            rt.metrics.recordsSkipped.inc({ connection: conn, entity, reason: 'not-for-billing' });
            continue;
          }
          if (record.draft && !c.syncDrafts) {
            if ((await setDraftAside(rt, conn, entity, record, known)) === 'quarantined') result.quarantined++;
            else result.drafts = (result.drafts ?? 0) + 1;
            continue;
          }
          if (record.deleted) {
            // A source delete (never a void) cannot be expressed in billing: mark it for reconciliation.
            if (known && !known.sourceDeletedAt) await rt.ledger.markSourceDeleted(conn, entity, record.id, record.version, { bumpVersion: true });
            result.deleted++;
            continue;
          }
          const mapped = await mapForUpsert(rt, conn, entity, stream, record, mapCtx);
          if (!mapped.ok) {
            result.quarantined++;
            continue;
          }
          const { hash } = mapped;
          if (known && (known.hash === hash || known.version > record.version)) {
            result.unchanged++;
            rt.metrics.recordsSkipped.inc({ connection: conn, entity, reason: known.hash === hash ? 'unchanged' : 'stale' });
            if (known.hash === hash) await rt.quarantine.clear(conn, entity, record.id, record.version);
            continue;
          }
          jobs.push({
            name: 'upsert',
            data: mapped.data,
            // A repair (reconcile forgot the hash) must not reuse the id of the completed original job,
            // which BullMQ would silently ignore as a duplicate.
            opts: {
              jobId: Ledger.repairRequested(known)
                ? `${upsertJobId(conn, entity, record.id, hash)}-r${Date.now().toString(36)}`
                : upsertJobId(conn, entity, record.id, hash),
              priority: (window ? PRIORITY.backfill : PRIORITY.incremental) + (entity === 'credit-notes' ? CREDIT_NOTE_PRIORITY_OFFSET : 0),
            },
          });
        }
        if (jobs.length) {
          // Batches no larger than what spreads the page over every upsert slot: a small incremental page
          // keeps the parallelism of one job per record; a page of at least batch size × upsertConcurrency
          // records gets full batches.
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
        // The page's jobs are durable in Redis: now the checkpoint may move (sorted streams only).
        if (stream.isSorted) await saveState(page.state);
        result.cursor = page.state.cursor;
        await job.updateProgress({ pages: result.pages, pulled: result.pulled, enqueued: result.enqueued });
        await waitForBacklog(rt, signal);
      }
      // Whole read done: the next incremental read starts at `until` (minus the lookback then).
      const cursor = windowKey ? 'done' : until.toISOString();
      await saveState({ ...state, cursor });
      if (!windowKey) {
        rt.metrics.lastSuccess.set({ connection: conn, entity }, Date.now() / 1000);
        rt.metrics.checkpointLag.set({ connection: conn, entity }, (Date.now() - until.getTime()) / 1000);
        await rt.syncStatus.recordSuccess(conn, entity);
      }
      log.info(result, 'pull finished');
      return { ...result, cursor };
    }
  });
}

/**
 * What the pipeline holds of each record: the version being written (in flight) or else the one written
 * (ledger); nothing for a record whose repair was asked, so it is read again.
 */
async function knownVersions(rt: Pick<PullHelpers, 'ledger' | 'inFlight'>, conn: string, entity: EntityName, ids: readonly string[]) {
  const [flying, written] = await Promise.all([rt.inFlight.versions(conn, entity, ids), rt.ledger.getMany(conn, entity, [...ids])]);
  return ids.map((_, i) => {
    const w = written[i];
    const f = flying[i];
    if (Ledger.repairRequested(w)) return undefined;
    if (f !== undefined && (w === undefined || f > w.version)) return f;
    return w?.version;
  });
}

function rewind(state: StreamState, lookbackSeconds: number): StreamState {
  if (!state.cursor) return state;
  return { ...state, cursor: new Date(Date.parse(state.cursor) - lookbackSeconds * 1000).toISOString() };
}

/**
 * Backpressure: while the upsert backlog is above the high-water mark, the pull waits. The mark counts
 * records, of every connection. Two counts bound them, and the lower one is used:
 * - the in-flight index: each record enqueued and not yet written, skipped or quarantined, whatever job
 *   carries it (exact, but an entry whose bookkeeping was interrupted stays until the sweep settles it);
 * - the jobs waiting, delayed or active, each weighed at `sync.upsertBatchSize` records (a batch of a
 *   small page, or a record that left its batch, carries fewer).
 * Jobs alone overcount up to `upsertBatchSize` times: records waiting as jobs of their own (credit notes
 * waiting for their invoices) then held the pulls of those very invoices back until they gave up waiting.
 */
export async function waitForBacklog(
  rt: Pick<PullHelpers, 'queues' | 'inFlight' | 'connectionIds'> & { config: { sync: Pick<AppConfig['sync'], 'backlogHighWater' | 'upsertBatchSize'> } },
  signal?: AbortSignal,
): Promise<void> {
  for (;;) {
    const counts = await rt.queues.upsert.getJobCounts('wait', 'prioritized', 'delayed', 'active');
    const jobs = Object.values(counts).reduce((a, b) => a + b, 0);
    const backlog = Math.min(jobs * rt.config.sync.upsertBatchSize, await rt.inFlight.total(rt.connectionIds()));
    if (backlog <= rt.config.sync.backlogHighWater) return;
    await sleep(250, undefined, { signal });
  }
}
