import type { ReadContext, Stream } from '../../src/connector/types.js';
import { idsGone } from '../../src/pipeline/ids-gone.js';
import { EMPTY } from './pull-stream.js';
import type { PullResult, PullRun } from './types.js';

/** Ids one read by id asks for at most (the stream pages them further where its vendor needs). */
const IDS_PER_READ = 100;

/**
 * A sweep for deletes, for a vendor whose deletes leave no trace (Connector.sweepsDeletes: TallyPrime).
 * Every id the source holds now (`Stream.listIds`: bounded requests, streamed into a Redis scratch set) is
 * compared with the ids the ledger holds live. Each one the listing lacks is read again by id: a record the
 * listing missed because it changed meanwhile (Tally gives an altered voucher the next AlterID, past the
 * listing's top) is found and left alone; only one the source has by id neither is a delete. It is applied
 * as every source delete is (jobs/pull/classify-record.ts): the ledger entry is marked (`sourceDeletedAt`,
 * now), billing is left as it is, and reconciliation reports `delete_not_reflected` for a person.
 * Runs under the stream's pull lock (pull-processor.ts): no pull of the stream runs beside it.
 */
export async function sweepDeletes(run: PullRun): Promise<PullResult> {
  const { rt, conn, entity, stream, handle, log } = run;
  const result: PullResult = { ...EMPTY, cursor: null };
  if (!stream.listIds || !handle.connector.sweepsDeletes) {
    log.warn({ entity }, 'a deletes sweep of a stream whose vendor lists no ids: nothing to do');
    return result;
  }
  const ctx = handle.readContext({ logger: log, signal: run.signal, until: new Date() });
  const scratch = rt.scratchIds(conn, `deletes:${entity}:${Date.now()}`);
  let candidates = 0;
  for await (const missing of idsGone(rt.ledger, scratch, conn, entity, stream.listIds(ctx))) {
    candidates += missing.length;
    const found = await foundByIds(stream, ctx, missing);
    const gone = missing.filter((id) => !found.has(id));
    const at = new Date().toISOString();
    for (const id of gone) await rt.ledger.markSourceDeleted(conn, entity, id, at);
    result.deleted += gone.length;
  }
  log.info({ entity, candidates, deleted: result.deleted }, 'deletes sweep done');
  return result;
}

/** The ids the source still has, read by id (none when the stream cannot read by id: nothing is then a delete). */
async function foundByIds(stream: Stream, ctx: ReadContext, ids: string[]): Promise<Set<string>> {
  if (!stream.readByIds) return new Set(ids);
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += IDS_PER_READ)
    for await (const page of stream.readByIds(ctx, ids.slice(i, i + IDS_PER_READ)))
      for (const r of page) found.add(r.id);
  return found;
}
