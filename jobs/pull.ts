import { DelayedError, RateLimitError } from 'bullmq';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BillingBody, MapContext, ReadContext, StreamState } from '../src/connector/types.js';
import { jobIdSafe } from '../src/mapping/index.js';
import { contentHash } from '../src/pipeline/content-hash.js';
import { ParkedError } from '../src/errors/index.js';
import { CREDIT_NOTE_PRIORITY_OFFSET, PRIORITY, PullPayload, QUEUES, type UpsertPayload } from './catalog.js';
import { defineJob } from './define-job.js';
import { reconcileFields } from './reconcile-fields.js';
import type { Runtime } from './runtime.js';

export interface PullResult {
  pulled: number;
  enqueued: number;
  unchanged: number;
  quarantined: number;
  deleted: number;
  pages: number;
  cursor: string | null;
}

const ENTITY_CODE = { invoices: 'inv', 'credit-notes': 'cn', customers: 'cust' } as const;

/** Deterministic upsert job id: same record + same content = same id (BullMQ ignores the duplicate). */
export function upsertJobId(connectionId: string, entity: keyof typeof ENTITY_CODE, erpId: string, hash: string): string {
  return jobIdSafe('up', connectionId, ENTITY_CODE[entity], erpId, hash.slice(0, 16));
}

/**
 * Reads one (connection, entity) stream from its checkpoint minus the lookback overlap up to
 * now − settle delay, page by page. Each page: map every record (failures to quarantine, never stopping
 * the page), skip content the ledger already holds, one addBulk of upsert jobs, and only then the
 * checkpoint (mid-run only for streams sorted by their cursor; otherwise at the end of the run).
 */
export function pullProcessor(rt: Runtime) {
  return defineJob(QUEUES.pull, PullPayload, rt, async ({ job, data, token, signal, log }): Promise<PullResult> => {
    const { connectionId: conn, entity, window } = data;
    const { config: c, connector } = rt.connection(conn);
    const stream = connector.streams[entity];
    const now = Date.now();
    const until = new Date(now - c.settleDelaySeconds * 1000);
    const windowKey = window ? `${data.runId ?? 'adhoc'}-${window.from}-${window.to}` : undefined;

    // Two incremental pulls of one stream at once would only duplicate work (and could roll the
    // checkpoint back): the second one returns at once.
    const releasePull = windowKey ? async () => {} : await rt.locks.tryAcquire(conn, `pull-${entity}`, 'incremental', 30 * 60_000, `job-${job.id}`);
    if (!releasePull) {
      log.info('an incremental pull of this stream is already running; skipped');
      return { pulled: 0, enqueued: 0, unchanged: 0, quarantined: 0, deleted: 0, pages: 0, cursor: null };
    }
    try {
      return await pullStream();
    } catch (err) {
      // What `erp-sync status` shows next to "last success": why incremental pulls of this stream fail. Deferrals
      // (quota parking, rate limits) are not failures. Error messages carry no secrets (src/errors).
      if (!windowKey && !(err instanceof DelayedError) && !(err instanceof RateLimitError) && !(err instanceof ParkedError)) {
        const message = err instanceof Error ? err.message : String(err);
        await rt.redis.hset(rt.keys.lastError(conn), entity, JSON.stringify({ at: Date.now(), message: message.slice(0, 500) }));
      }
      throw err;
    } finally {
      await releasePull();
    }

    async function pullStream(): Promise<PullResult> {
      let state: StreamState;
      if (windowKey) {
        state = (await rt.checkpoints.getWindow<StreamState>(conn, entity, windowKey)) ?? stream.initialState(undefined);
        if (state.cursor === 'done') return { pulled: 0, enqueued: 0, unchanged: 0, quarantined: 0, deleted: 0, pages: 0, cursor: 'done' };
      } else {
        const cp = await rt.checkpoints.get<StreamState>(conn, entity);
        state = cp ? rewind(cp.state, c.lookbackSeconds) : stream.initialState(undefined);
      }

      const ctx: ReadContext = { connectionId: conn, http: rt.vendorClient(conn), logger: log, signal, until, settings: c.settings, window };
      const result: PullResult = { pulled: 0, enqueued: 0, unchanged: 0, quarantined: 0, deleted: 0, pages: 0, cursor: state.cursor };
      const lookups = stream.lookups ? await stream.lookups(ctx) : {};
      const mapCtx: MapContext = { connectionId: conn, originSource: c.originSource, baseCurrency: rt.config.billing.baseCurrency, lookups };
      for await (const page of stream.read(ctx, state)) {
        result.pages++;
        result.pulled += page.records.length;
        rt.metrics.recordsPulled.inc({ connection: conn, entity }, page.records.length);
        const ledger = await rt.ledger.getMany(
          conn,
          entity,
          page.records.map((r) => r.id),
        );
        const jobs: Array<{ name: string; data: UpsertPayload; opts: { jobId: string; priority: number } }> = [];
        for (const [i, record] of page.records.entries()) {
          const known = ledger[i];
          if (record.deleted) {
            // A source delete (never a void) cannot be expressed in billing: mark it for reconciliation.
            if (known && !known.sourceDeletedAt)
              await rt.ledger.put(conn, entity, record.id, {
                ...known,
                sourceDeletedAt: record.version,
                version: record.version > known.version ? record.version : known.version,
              });
            result.deleted++;
            continue;
          }
          const mapped = stream.map(record, mapCtx);
          if (!mapped.ok) {
            result.quarantined++;
            rt.metrics.recordsQuarantined.inc({ connection: conn, entity, reason: mapped.reason });
            await rt.quarantine.put({
              connection: conn,
              entity,
              erpId: record.id,
              version: record.version,
              reason: mapped.reason,
              message: mapped.message,
              field: mapped.field,
              stage: 'map',
              at: Date.now(),
            });
            continue;
          }
          rt.metrics.recordsMapped.inc({ connection: conn, entity });
          const body = mapped.value as BillingBody;
          const hash = contentHash(body);
          if (known && (known.hash === hash || known.version > record.version)) {
            result.unchanged++;
            rt.metrics.recordsSkipped.inc({ connection: conn, entity, reason: known.hash === hash ? 'unchanged' : 'stale' });
            if (known.hash === hash) await rt.quarantine.clear(conn, entity, record.id, record.version);
            continue;
          }
          jobs.push({
            name: 'upsert',
            data: {
              connectionId: conn,
              entity,
              erpId: record.id,
              version: record.version,
              hash,
              sourceStatus: record.status,
              body: body as UpsertPayload['body'],
              fields: reconcileFields(body),
              documentUrl: documentUrlOf(record.raw),
            },
            // A repair (reconcile forgot the hash) must not reuse the id of the completed original job,
            // which BullMQ would silently ignore as a duplicate.
            opts: {
              jobId:
                known?.hash === 'repair'
                  ? `${upsertJobId(conn, entity, record.id, hash)}-r${Date.now().toString(36)}`
                  : upsertJobId(conn, entity, record.id, hash),
              priority: (window ? PRIORITY.backfill : PRIORITY.incremental) + (entity === 'credit-notes' ? CREDIT_NOTE_PRIORITY_OFFSET : 0),
            },
          });
        }
        if (jobs.length) {
          await rt.queues.upsert.addBulk(jobs);
          if (data.runId) {
            // The run's own upserts, which `erp-sync backfill` waits for. Added after the jobs exist (an id
            // whose job does not exist counts as finished) and before this pull completes (the run is
            // not complete before all its pulls are).
            const runKey = rt.keys.runUpserts(data.runId);
            await rt.redis
              .multi()
              .sadd(runKey, ...jobs.map((j) => j.opts.jobId))
              .expire(runKey, 7 * 24 * 3600)
              .exec();
          }
          result.enqueued += jobs.length;
          rt.metrics.recordsEnqueued.inc({ connection: conn, entity }, jobs.length);
        }
        // The page's jobs are durable in Redis: now the checkpoint may move (sorted streams only).
        if (stream.isSorted) await saveState(rt, conn, entity, windowKey, page.state);
        result.cursor = page.state.cursor;
        await job.updateProgress({ pages: result.pages, pulled: result.pulled, enqueued: result.enqueued });
        await waitForBacklog(rt, signal);
      }
      // Whole read done: the next incremental read starts at `until` (minus the lookback then).
      const cursor = windowKey ? 'done' : until.toISOString();
      await saveState(rt, conn, entity, windowKey, { ...state, cursor });
      if (!windowKey) {
        rt.metrics.lastSuccess.set({ connection: conn, entity }, Date.now() / 1000);
        rt.metrics.checkpointLag.set({ connection: conn, entity }, (Date.now() - until.getTime()) / 1000);
        await rt.redis.multi().hset(rt.keys.lastSuccess(conn), entity, String(Date.now())).hdel(rt.keys.lastError(conn), entity).exec();
      }
      log.info(result, 'pull finished');
      return { ...result, cursor };
    }
  });
}

function rewind(state: StreamState, lookbackSeconds: number): StreamState {
  if (!state.cursor) return state;
  return { ...state, cursor: new Date(Date.parse(state.cursor) - lookbackSeconds * 1000).toISOString() };
}

async function saveState(rt: Runtime, conn: string, entity: string, windowKey: string | undefined, state: StreamState): Promise<void> {
  if (windowKey) await rt.checkpoints.setWindow(conn, entity, windowKey, state);
  else await rt.checkpoints.set(conn, entity, state);
}

/** Backpressure: while the upsert backlog is above the high-water mark, the pull waits. */
export async function waitForBacklog(rt: Runtime, signal?: AbortSignal): Promise<void> {
  for (;;) {
    const counts = await rt.queues.upsert.getJobCounts('wait', 'prioritized', 'delayed', 'active');
    const backlog = Object.values(counts).reduce((a, b) => a + b, 0);
    if (backlog <= rt.config.sync.backlogHighWater) return;
    await sleep(250, undefined, { signal });
  }
}

/** A shareable document link, where the ERP gives one (Zoho invoice_url). */
function documentUrlOf(raw: unknown): string | undefined {
  const r = raw as { invoice_url?: unknown } | undefined;
  return typeof r?.invoice_url === 'string' && /^https?:\/\//.test(r.invoice_url) ? r.invoice_url : undefined;
}
