import type { Runtime } from '../jobs/runtime.js';
import type { EntityName } from '../src/connector/entities.js';
import type { WindowTake } from '../src/pipeline/fixed-window-limiter.js';
import type { CachedRead, SourceReadCache } from '../src/pipeline/source-read-cache.js';
import { readSourceRecord, type SourceRecordRead } from './read-source-record.js';

/** Vendor reads one caller may cause by asking for records from the source, per window. */
export const SOURCE_READS_PER_CALLER = 10;
export const SOURCE_READS_WINDOW_SECONDS = 60;

type ShowRuntime = Pick<Runtime, 'connection' | 'logger' | 'sourceReads' | 'windowLimiter' | 'config'>;

export interface SourceRecordAsk {
  connection: string;
  entity: EntityName;
  erpId: string;
  /** Who asks (a token name): the per-caller limit counts the vendor reads they cause. */
  caller: string;
  /** Read the vendor now even if a recent read is kept (still under the caller's limit). */
  fresh?: boolean;
  now?: () => number;
}

export type SourceRecordShown =
  | ({ limited: false; cached: boolean } & CachedRead<SourceRecordRead>)
  | ({ limited: true } & Extract<WindowTake, { allowed: false }>);

/** Reads of one record in progress in this process: asks that arrive meanwhile share the one vendor read. */
const inProgress = new Map<string, Promise<CachedRead<SourceRecordRead>>>();

/**
 * A quarantined record as the source holds it, for a person: the read kept from the last few minutes
 * (SOURCE_READ_CACHE_SECONDS, shared by every worker) unless `fresh`, else one vendor read (shared by
 * concurrent asks), counted against the caller's limit. So viewing a record over and over costs the
 * vendor quota one read per record per few minutes, and one caller at most SOURCE_READS_PER_CALLER reads
 * a minute.
 */
export async function showSourceRecord(rt: ShowRuntime, ask: SourceRecordAsk): Promise<SourceRecordShown> {
  const { connection, entity, erpId } = ask;
  // The cache holds only what this operation put in it.
  const cache = rt.sourceReads as SourceReadCache<SourceRecordRead>;
  if (!ask.fresh) {
    const kept = await cache.get(connection, entity, erpId);
    if (kept) return { limited: false, cached: true, ...kept };
  }
  const flightKey = `${rt.config.redis.prefix}|${connection}|${entity}|${erpId}`;
  const running = inProgress.get(flightKey);
  if (running) return { limited: false, cached: false, ...(await running) };
  const limiter = rt.windowLimiter('source-read', SOURCE_READS_PER_CALLER, SOURCE_READS_WINDOW_SECONDS);
  const take = await limiter.take(ask.caller);
  if (!take.allowed) return { limited: true, ...take };
  const now = ask.now ?? Date.now;
  const reading = (async () => {
    const read = await readSourceRecord(rt, connection, entity, erpId);
    const kept = { read, readAt: now() };
    await cache.put(connection, entity, erpId, kept);
    return kept;
  })().finally(() => inProgress.delete(flightKey));
  inProgress.set(flightKey, reading);
  return { limited: false, cached: false, ...(await reading) };
}
