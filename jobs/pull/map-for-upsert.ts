import type { EntityName } from '../../src/connector/entities.js';
import type { MapContext, SourceRecord, Stream } from '../../src/connector/types.js';
import type { Metrics } from '../../src/observability/metrics.js';
import type { DocumentLinker } from '../../src/documents/document-links.js';
import { contentHash } from '../../src/pipeline/content-hash.js';
import type { Quarantine } from '../../src/pipeline/quarantine.js';
import type { UpsertPayload } from '../catalog.js';
import { reconcileFields } from './reconcile-fields.js';

/**
 * One source record through the connector's mapper, as a pull and a repair both take it: a record that
 * does not map is quarantined (stage `map`, with its reason) and counted; one that maps is counted and
 * comes back with its content hash and the upsert payload that carries it.
 */
export async function mapForUpsert(
  rt: {
    metrics: Metrics;
    quarantine: Pick<Quarantine, 'put'>;
    /** The connection's document links while the worker gives them (absent: none). */
    documentLinker?(connection: string): DocumentLinker | undefined;
  },
  conn: string,
  entity: EntityName,
  stream: Pick<Stream<any>, 'map' | 'documentUrl'>,
  record: SourceRecord<any>,
  mapCtx: MapContext,
): Promise<{ ok: true; hash: string; data: UpsertPayload } | { ok: false; reason: string; message: string }> {
  const mapped = stream.map(record, mapCtx);
  if (!mapped.ok) {
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
    return { ok: false, reason: mapped.reason, message: mapped.message };
  }
  rt.metrics.recordsMapped.inc({ connection: conn, entity });
  const body = mapped.value;
  const hash = contentHash(body);
  return {
    ok: true,
    hash,
    data: {
      connectionId: conn,
      entity,
      erpId: record.id,
      version: record.version,
      hash,
      sourceStatus: record.status,
      sourceLifecycle: record.lifecycle,
      body,
      fields: reconcileFields(body),
      documentUrl: stream.documentUrl?.(record, rt.documentLinker?.(conn)),
    },
  };
}
