import type { DocumentLinker } from '../../src/documents/document-links.js';
import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { EntityName } from '../../src/connector/entities.js';
import type { MapContext, ReadContext, SourceRecord } from '../../src/connector/types.js';
import type { Metrics } from '../../src/observability/metrics.js';
import type { BackfillRuns } from '../../src/pipeline/backfill-runs.js';
import type { InFlight } from '../../src/pipeline/in-flight.js';
import type { Ledger, LedgerEntry } from '../../src/pipeline/ledger.js';
import type { Quarantine } from '../../src/pipeline/quarantine.js';
import type { RecordHistory } from '../../src/pipeline/record-history.js';
import { CREDIT_NOTE_PRIORITY_OFFSET, PRIORITY } from '../catalog.js';
import { setDraftAside } from '../pull/draft-record.js';
import { enqueueUpserts, upsertJobId, type UpsertJob } from '../upsert/enqueue-upserts.js';
import { requeuedEntry } from '../upsert/upsert-history.js';
import { mapForUpsert } from '../pull/map-for-upsert.js';
import type { ConnectionHandle } from '../runtime.js';

/** A read context whose vendor requests are counted (what a read by id costs). */
export function countingVendorCalls(base: ReadContext): { ctx: ReadContext; calls: () => number } {
  let calls = 0;
  const http = Object.create(base.http) as typeof base.http;
  http.request = ((...args: Parameters<typeof base.http.request>) => {
    calls++;
    return base.http.request(...args);
  }) as typeof base.http.request;
  return { ctx: { ...base, http }, calls: () => calls };
}

/** What one record's repair did. */
export interface RepairOutcome {
  erpId: string;
  /**
   * `re-enqueued`: read again and handed to the upsert queue (its job id); `source-gone`: the source no
   * longer has it (absent, 404, or deleted there: recorded in the ledger for reconciliation);
   * `quarantined`: read again but it cannot be written (its reason); `skipped`: read again, not one
   * billing takes now (a draft, a record not for billing).
   */
  action: 're-enqueued' | 'source-gone' | 'quarantined' | 'skipped';
  /** The source version read (absent for a record the source no longer has). */
  version?: string;
  jobId?: string;
  reason?: string;
  detail?: string;
}

export interface RepairByIdResult {
  /** The run id the re-enqueued upserts are tracked under (what `reconcile --repair` waits for). */
  runId: string;
  records: RepairOutcome[];
  /** Requests made to the vendor by this repair (its by-id reads and what they need: lookups, enrichment). */
  vendorCalls: number;
}

export interface RepairByIdHelpers {
  logger: Logger;
  metrics: Metrics;
  connection(id: string): ConnectionHandle;
  ledger: Pick<Ledger, 'getMany' | 'markSourceDeleted' | 'requestRepair' | 'correctVersion'>;
  quarantine: Pick<Quarantine, 'put'>;
  inFlight: Pick<InFlight, 'track'>;
  backfillRuns: Pick<BackfillRuns, 'trackUpserts'>;
  queues: { upsert: Pick<Queue, 'addBulk'> };
  /** Each re-enqueued record's history gets a `repaired` entry (absent: none kept). */
  recordHistory?: Pick<RecordHistory, 'appendMany'>;
  /** The connection's document links (absent or undefined: none). */
  documentLinker?(connection: string): DocumentLinker | undefined;
}

/**
 * Repairs exactly these records: reads each again from the source by id (the stream's `readByIds`: one
 * call per id, or per page of ids where the vendor takes a list), maps it, and hands it to the upsert
 * queue the way a pull does (tracked in flight first, one addBulk). No checkpoint moves and no history is
 * re-read, so a repair costs the drifted records, not the days since the oldest of them; and it reads up
 * to now, not now − settle delay, so a record changed a moment ago is repaired at its new version.
 *
 * Each job id is the pull's content id with a repair suffix: a completed job of the same content (the
 * write billing has since lost or altered) would otherwise swallow it as a duplicate. The ledger's hash
 * is forgotten first (`requestRepair`), so the upsert writes even though the content did not change.
 * Undefined when the stream cannot read by id (the caller falls back to a rewind).
 */
export async function repairById(
  rt: RepairByIdHelpers,
  conn: string,
  entity: EntityName,
  erpIds: readonly string[],
  signal?: AbortSignal,
): Promise<RepairByIdResult | undefined> {
  const handle = rt.connection(conn);
  const stream = handle.connector.streams[entity];
  if (!stream.readByIds) return undefined;
  const ids = [...new Set(erpIds)];
  const log = rt.logger.child({ connection: conn, entity, repair: 'by-id' });
  const counted = countingVendorCalls(handle.readContext({ logger: log, signal, until: new Date() }));
  const { ctx } = counted;
  const runId = `repair-${randomUUID()}`;
  const records: RepairOutcome[] = [];
  if (!ids.length) return { runId, records, vendorCalls: counted.calls() };
  const run = await startRepair(rt, handle, { conn, entity, runId }, ctx);
  // The versions held before the source is read: one the read finds older was never the source's (a
  // delivery's wrong time) and is corrected, unless an upsert moved it meanwhile (ledger.correctVersion).
  const before = await rt.ledger.getMany(conn, entity, ids);
  run.heldBefore = new Map(ids.map((id, i) => [id, before[i]?.version]));
  await rt.ledger.requestRepair(conn, entity, ids);
  const found = new Set<string>();
  for await (const page of stream.readByIds(ctx, ids)) {
    const mine = page.filter((r) => ids.includes(r.id) && !found.has(r.id));
    for (const r of mine) found.add(r.id);
    records.push(...(await repairPage(run, mine)));
  }
  records.push(...(await markNotFound(rt, conn, entity, ids, found)));
  const vendorCalls = counted.calls();
  log.info({ records: records.length, vendorCalls }, 'repair by id done');
  return { runId, records, vendorCalls };
}

/** One repair by id under way: what mapping and enqueueing its records needs. */
interface RepairRun {
  rt: RepairByIdHelpers;
  conn: string;
  entity: EntityName;
  stream: ConnectionHandle['connector']['streams'][EntityName];
  syncDrafts: boolean;
  mapCtx: MapContext;
  runId: string;
  priority: number;
  /** Each record's ledger version before the source was read (undefined: no entry). */
  heldBefore: Map<string, string | undefined>;
}

async function startRepair(
  rt: RepairByIdHelpers,
  handle: ConnectionHandle,
  { conn, entity, runId }: { conn: string; entity: EntityName; runId: string },
  ctx: ReadContext,
): Promise<RepairRun> {
  const { config: c, connector } = handle;
  const stream = connector.streams[entity];
  const lookups = stream.lookups ? await stream.lookups(ctx) : {};
  return {
    rt,
    conn,
    entity,
    stream,
    syncDrafts: c.syncDrafts,
    mapCtx: {
      connectionId: conn,
      originSource: c.originSource,
      baseCurrency: handle.billing.baseCurrency,
      lookups,
      fields: c.fields,
    },
    runId,
    priority: PRIORITY.incremental + (entity === 'credit-notes' ? CREDIT_NOTE_PRIORITY_OFFSET : 0),
    heldBefore: new Map(),
  };
}

/** The records of one page read by id: each repaired, those to write enqueued and tracked under the run. */
async function repairPage(run: RepairRun, mine: SourceRecord[]): Promise<RepairOutcome[]> {
  const { rt, conn, entity } = run;
  const ledger = await rt.ledger.getMany(
    conn,
    entity,
    mine.map((r) => r.id),
  );
  const jobs: UpsertJob[] = [];
  const outcomes: RepairOutcome[] = [];
  for (const [i, record] of mine.entries()) {
    const outcome = await repairOne(run, record, ledger[i]);
    if (outcome.action === 're-enqueued') jobs.push(outcome.job);
    outcomes.push(outcome.report);
  }
  if (jobs.length) {
    await enqueueUpserts(rt, jobs);
    // Tracked after the jobs exist (an id whose job does not exist counts as finished).
    await rt.backfillRuns.trackUpserts(
      run.runId,
      jobs.map((j) => j.opts.jobId),
    );
    rt.metrics.recordsEnqueued.inc({ connection: conn, entity }, jobs.length);
    await rt.recordHistory?.appendMany(conn, entity, jobs.map(requeuedEntry('repaired')));
  }
  return outcomes;
}

/**
 * Ids absent by id (a 404, or not in the by-ids answer): the source no longer has them. Recorded on the
 * ledger entry like a delete found by reconciliation's id diff, so billing's copy is reported.
 */
async function markNotFound(
  rt: RepairByIdHelpers,
  conn: string,
  entity: EntityName,
  ids: string[],
  found: Set<string>,
): Promise<RepairOutcome[]> {
  const outcomes: RepairOutcome[] = [];
  for (const id of ids) {
    if (found.has(id)) continue;
    await rt.ledger.markSourceDeleted(conn, entity, id, new Date().toISOString());
    outcomes.push({ erpId: id, action: 'source-gone', detail: 'the source no longer has it (not found by id)' });
  }
  return outcomes;
}

/**
 * What a record read again by id is to its repair: deleted in the source; not one for billing; a draft
 * billing does not take (syncDrafts: false); or one to map and write.
 */
export type RepairKind = 'deleted' | 'not-for-billing' | 'draft' | 'write';

export function classifyRepairRecord(
  record: Pick<SourceRecord, 'deleted' | 'notForBilling' | 'draft'>,
  syncDrafts: boolean,
): RepairKind {
  if (record.deleted) return 'deleted';
  if (record.notForBilling) return 'not-for-billing';
  if (record.draft && !syncDrafts) return 'draft';
  return 'write';
}

type RepairedRecord =
  { action: 're-enqueued'; job: UpsertJob; report: RepairOutcome } | { action: 'other'; report: RepairOutcome };

async function repairOne(
  run: RepairRun,
  record: SourceRecord,
  known: LedgerEntry | undefined,
): Promise<RepairedRecord> {
  const { rt, conn, entity } = run;
  const base = { erpId: record.id, version: record.version };
  const other = (report: Omit<RepairOutcome, 'erpId' | 'version'>): RepairedRecord => ({
    action: 'other',
    report: { ...base, ...report },
  });
  switch (classifyRepairRecord(record, run.syncDrafts)) {
    case 'deleted':
      await rt.ledger.markSourceDeleted(conn, entity, record.id, record.version, { bumpVersion: true });
      return other({ action: 'source-gone', detail: `deleted in the source (status ${record.status ?? 'deleted'})` });
    case 'not-for-billing':
      return other({ action: 'skipped', reason: 'not-for-billing', detail: record.notForBilling });
    case 'draft':
      return (await setDraftAside(rt, conn, entity, record, known)) === 'quarantined'
        ? other({
            action: 'quarantined',
            reason: 'RETURNED_TO_DRAFT',
            detail: 'back to draft in the ERP after it was written',
          })
        : other({
            action: 'skipped',
            reason: 'draft',
            detail: `a draft in the ERP (status ${record.status ?? 'draft'})`,
          });
    case 'write':
      await correctAhead(run, record, known);
      return await mappedForRepair(run, record);
  }
}

/**
 * A live record the ledger holds ahead of the source (a newer version than the one just read, or a
 * delete mark): the entry is set back to the source's version, so the upsert is not refused as older.
 */
async function correctAhead(run: RepairRun, record: SourceRecord, known: LedgerEntry | undefined): Promise<void> {
  const seen = run.heldBefore.get(record.id);
  if (!known || seen === undefined || !(seen > record.version || known.sourceDeletedAt)) return;
  if (await run.rt.ledger.correctVersion(run.conn, run.entity, record.id, seen, record.version))
    run.rt.logger.warn(
      { connection: run.conn, entity: run.entity, erpId: record.id, held: seen, source: record.version },
      'ledger held a version the source never had; set back to the source’s and written again',
    );
}

/** A record to write: mapped, its job id the pull's content id with the run's repair suffix. */
async function mappedForRepair(run: RepairRun, record: SourceRecord): Promise<RepairedRecord> {
  const { rt, conn, entity } = run;
  const base = { erpId: record.id, version: record.version };
  const mapped = await mapForUpsert(rt, conn, entity, run.stream, record, run.mapCtx);
  if (!mapped.ok)
    return {
      action: 'other',
      report: { ...base, action: 'quarantined', reason: mapped.reason, detail: mapped.message },
    };
  const jobId = `${upsertJobId(conn, entity, record.id, mapped.hash)}-r${run.runId.slice(7, 15)}`;
  const job: UpsertJob = {
    name: 'upsert',
    data: { ...mapped.data, path: 'repair' },
    opts: { jobId, priority: run.priority },
  };
  return { action: 're-enqueued', job, report: { ...base, action: 're-enqueued', jobId } };
}
