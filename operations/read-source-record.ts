import type { Runtime } from '../jobs/runtime.js';
import type { BillingBody, MapContext, SourceRecord } from '../src/connector/types.js';
import type { EntityName } from '../src/connector/entities.js';
import type { MapResult } from '../src/mapping/index.js';

export type SourceRecordRead =
  /** The stream cannot read by id (no vendor by-id read). */
  | { state: 'unsupported' }
  /** The source no longer has the record. */
  | { state: 'not-found' }
  /** The record as the source holds it now, and what the mapper makes of it (the body, or why not). */
  | { state: 'found'; record: Omit<SourceRecord, 'raw'> & { raw: unknown }; mapped: MapResult<BillingBody> };

/**
 * One record read from the source now by its id (the stream's `readByIds`, as a repair reads it: a
 * vendor call or two, and the stream's lookups) and mapped as a pull would map it. Writes nothing: it
 * shows a person the record behind a quarantine entry, and whether it maps now.
 */
export async function readSourceRecord(
  rt: Pick<Runtime, 'connection' | 'logger'>,
  connection: string,
  entity: EntityName,
  erpId: string,
  signal?: AbortSignal,
): Promise<SourceRecordRead> {
  const handle = rt.connection(connection);
  const stream = handle.connector.streams[entity];
  if (!stream.readByIds) return { state: 'unsupported' };
  const ctx = handle.readContext({
    logger: rt.logger.child({ connection, entity, read: 'one record' }),
    signal,
    until: new Date(),
  });
  for await (const page of stream.readByIds(ctx, [erpId])) {
    const record = page.find((r) => r.id === erpId);
    if (!record) continue;
    const mapCtx: MapContext = {
      connectionId: connection,
      originSource: handle.config.originSource,
      baseCurrency: handle.billing.baseCurrency,
      fields: handle.config.fields,
      lookups: stream.lookups ? await stream.lookups(ctx) : {},
    };
    return { state: 'found', record, mapped: stream.map(record, mapCtx) };
  }
  return { state: 'not-found' };
}
