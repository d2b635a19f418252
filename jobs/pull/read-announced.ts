import type { MapContext, ReadContext, SourceRecord, StreamState } from '../../src/connector/types.js';
import { Ledger } from '../../src/pipeline/ledger.js';
import type { PendingEvent } from '../../src/pipeline/webhook-events.js';
import type { PullResult } from './types.js';
import { EMPTY, pullPage } from './pull-stream.js';
import type { PullRun } from './types.js';

/** The ids one read by id asks for at most (the stream pages them further where its vendor needs). */
const IDS_PER_READ = 100;

/**
 * A targeted read: the records webhook deliveries announced for one stream (a batch of events,
 * src/pipeline/webhook-events.ts), read by id (`Stream.readByIds`) and handed to the upsert queue by the
 * pull's own page step, so quotas, fairness, pause and each record's classification (the stream's
 * selection included: a supplier's document is skipped and counted) are the pull's.
 *
 * - A change event no newer than the version the ledger holds is dropped before any vendor call.
 * - A delete (QuickBooks Delete, Zoho Books `deleted`) is read like a change: only the vendor answering
 *   that it has no such record confirms it, and it is then applied as the pull applies a source delete.
 *   A delete the vendor denies (the record is there) is the record's change: a wrong or forged delivery
 *   never marks a live record deleted.
 * - A void is read like a change: the read says it is void and the mapper writes the void, never a delete.
 *
 * No checkpoint moves and the stream's last success is not touched: the incremental pull stays the
 * safety net. The batch is kept until this read ends, so a retry acts on the same events.
 */
export async function readAnnounced(run: PullRun, batch: number): Promise<PullResult> {
  const { rt, conn, entity, stream, handle, log } = run;
  const result: PullResult = { ...EMPTY, cursor: null };
  const events = await rt.webhookEvents!.claim(conn, entity, batch);
  if (!events.length) return result;
  const deletes = events.filter((e) => e.op === 'delete');
  const toRead = [
    ...(await newerThanLedger(
      run,
      events.filter((e) => e.op !== 'delete'),
      result,
    )),
    ...deletes,
  ];
  const ctx = handle.readContext({ logger: log, signal: run.signal, until: new Date() });
  const mapCtx: MapContext = {
    connectionId: conn,
    originSource: handle.config.originSource,
    baseCurrency: handle.billing.baseCurrency,
    fields: handle.config.fields,
    lookups: toRead.length && stream.lookups ? await stream.lookups(ctx) : {},
  };
  const found = await readEach(run, ctx, toRead, mapCtx, result);
  const confirmed = deletes.filter((e) => !found.has(e.id));
  if (confirmed.length)
    await pullPage(run, { records: confirmed.map(deletedRecord), state: { cursor: null } }, mapCtx, result);
  const denied = deletes.length - confirmed.length;
  if (denied) log.warn({ denied }, 'announced deletes of records the source still has: read as changes, not deleted');
  const gone = toRead.filter((e) => e.op !== 'delete' && !found.has(e.id)).length;
  if (gone) log.info({ gone }, 'announced records not found by id (deleted since); left to the safety net');
  await rt.webhookEvents!.finish(conn, entity, batch);
  log.info({ ...result, events: events.length }, 'announced records read');
  return result;
}

/** The announced records read by id, each page through the pull's page step; returns the ids the source has. */
async function readEach(
  run: PullRun,
  ctx: ReadContext,
  toRead: PendingEvent[],
  mapCtx: MapContext,
  result: PullResult,
): Promise<Set<string>> {
  const found = new Set<string>();
  if (!toRead.length) return found;
  if (!run.stream.readByIds) throw new Error(`the ${run.entity} stream cannot read by id`);
  const state: StreamState = { cursor: null };
  for (let i = 0; i < toRead.length; i += IDS_PER_READ) {
    const ids = toRead.slice(i, i + IDS_PER_READ).map((e) => e.id);
    for await (const page of run.stream.readByIds(ctx, ids)) {
      const mine = page.filter((r) => ids.includes(r.id) && !found.has(r.id));
      for (const r of mine) found.add(r.id);
      if (mine.length) await pullPage(run, { records: mine, state }, mapCtx, result);
    }
  }
  return found;
}

/** Drops the events the ledger already holds a version as new as (counted unchanged); the rest are read. */
async function newerThanLedger(
  { rt, conn, entity }: PullRun,
  events: PendingEvent[],
  result: PullResult,
): Promise<PendingEvent[]> {
  if (!events.length) return events;
  const known = await rt.ledger.getMany(
    conn,
    entity,
    events.map((e) => e.id),
  );
  const keep = events.filter((e, i) => {
    const k = known[i];
    return !(e.at && k && !Ledger.repairRequested(k) && k.version >= e.at);
  });
  const dropped = events.length - keep.length;
  if (dropped) {
    result.unchanged += dropped;
    rt.metrics.recordsSkipped.inc({ connection: conn, entity, reason: 'unchanged' }, dropped);
  }
  return keep;
}

/**
 * A confirmed delete as the stream reports one (QuickBooks CDC's stub): deleted, at the event's time (never
 * beyond now + skew: src/webhooks/delivery-time.ts), else now.
 */
function deletedRecord(e: PendingEvent): SourceRecord {
  return { id: e.id, version: e.at ?? new Date().toISOString(), status: 'Deleted', deleted: true, raw: { Id: e.id } };
}
