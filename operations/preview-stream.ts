import type { Runtime } from '../jobs/runtime.js';
import { classifyMapped, classifyRecord } from '../jobs/pull/classify-record.js';
import { RETURNED_TO_DRAFT, returnedToDraft, returnedToDraftMessage } from '../jobs/pull/draft-record.js';
import type { BillingBody } from '../src/connector/billing-body.js';
import type { EntityName } from '../src/connector/entities.js';
import type { LedgerEntry } from '../src/pipeline/ledger.js';
import type { MapContext, SourceRecord, Stream, StreamState } from '../src/connector/types.js';
import { ConfigError } from '../src/errors/index.js';
import type { FlatObject } from '../src/billing/schemas/primitives.js';
import type { FieldRule } from '../src/mapping/place-fields.js';
import { contentHash } from '../src/pipeline/content-hash.js';
import { estimateConnectionFirstSync, type FirstSyncView } from './project-calls.js';

/**
 * What a pull would do with one record: `new` (not in the ledger), `changed` (billing holds another
 * content), `unchanged` (billing holds this content hash: skipped), `stale` (billing holds a newer source
 * version: skipped), `quarantine` (the mapping refuses it), `deleted` (deleted in the source: marked for
 * reconciliation, nothing sent), `skipped` (billing does not take it, or a draft on a connection that does
 * not sync drafts: the pull sets it aside). Decided by the pull's own classifiers (jobs/pull/classify-record.ts).
 */
export type PreviewOutcome = 'new' | 'changed' | 'unchanged' | 'stale' | 'quarantine' | 'deleted' | 'skipped';

export interface PreviewRecord {
  erpId: string;
  version: string;
  outcome: PreviewOutcome;
  number?: string;
  total?: number;
  currency?: string;
  hash?: string;
  body?: BillingBody;
  quarantine?: { reason: string; message: string; field?: string };
  /** Why a `skipped` record is set aside: billing does not take it (with the stream's reason), or a draft. */
  skipped?: { kind: 'not-for-billing' | 'draft'; reason?: string };
  /**
   * The body's `tags`, and the `metaData` keys the connection's `fields` rules write: what a field
   * mapping changes, to check it before a sync or a backfill sends it (docs/configuration.md, "Field mapping").
   */
  fields?: { tags?: FlatObject; metaData?: FlatObject };
}

export interface PreviewResult {
  connection: string;
  entity: EntityName;
  /** Where the read started: the stored checkpoint, --from, or the stream's beginning. */
  start: { from: 'checkpoint' | '--from' | 'beginning'; cursor: string | null };
  until: string;
  records: PreviewRecord[];
  counts: Record<PreviewOutcome, number>;
  /** True when --limit stopped the read before the source was exhausted. */
  limited: boolean;
  /**
   * Read from the beginning (no checkpoint): how long the stream's first sync takes at the connection's
   * quota, from the source's record count (operations/project-calls.ts); null otherwise, or when the
   * connector declares no call costs.
   */
  firstSync: FirstSyncView | null;
}

export interface PreviewRequest {
  connectionId: string;
  entity: EntityName;
  /** The cursor to read from instead of the stored checkpoint (an ISO instant). */
  from?: string;
  /** Stop after this many records. */
  limit: number;
}

type PreviewRuntime = Pick<Runtime, 'connection' | 'checkpoints' | 'ledger' | 'config' | 'logger' | 'quotas'>;

/**
 * Reads one stream as the next incremental pull would (from the stored checkpoint, or from `from`, up
 * to now − the settle delay), maps each record and compares it with the ledger, stopping after `limit`
 * records. Writes nothing: no billing call, no checkpoint, no quarantine entry, no job. (The read itself
 * goes through the connection's vendor client, which counts its calls against the vendor quota and may
 * refresh the access token, as any read does.)
 */
export async function previewStream(rt: PreviewRuntime, request: PreviewRequest): Promise<PreviewResult> {
  const handle = rt.connection(request.connectionId);
  const { config: c } = handle;
  const stream = syncedStream(handle, request.entity);
  const { state, start } = await startOf(rt, stream, request);
  const until = new Date(Date.now() - c.settleDelaySeconds * 1000);
  const ctx = handle.readContext({ logger: rt.logger, until });
  const mapCtx: MapContext = {
    connectionId: c.id,
    originSource: c.originSource,
    baseCurrency: handle.billing.baseCurrency,
    fields: c.fields,
    lookups: stream.lookups ? await stream.lookups(ctx) : {},
  };
  const judge = (record: SourceRecord, ledger: LedgerEntry | undefined) =>
    previewRecord(stream, record, ledger, mapCtx, { syncDrafts: c.syncDrafts });
  const records: PreviewRecord[] = [];
  let limited = false;
  for await (const page of stream.read(ctx, state)) {
    const known = await rt.ledger.getMany(
      c.id,
      request.entity,
      page.records.map((r) => r.id),
    );
    for (const [i, record] of page.records.entries()) {
      if (records.length >= request.limit) break;
      records.push(judge(record, known[i]));
    }
    // At the limit, whether more follow is not known without reading on (the page may end exactly there).
    limited = records.length >= request.limit;
    if (limited) break;
  }
  return {
    connection: c.id,
    entity: request.entity,
    start,
    until: until.toISOString(),
    records,
    counts: countOf(records),
    limited,
    firstSync:
      start.from === 'beginning' ? await estimateConnectionFirstSync(rt, c.id, { entities: [request.entity] }) : null,
  };
}

/** The connection's stream of `entity`, refused when the connection does not sync it. */
function syncedStream(handle: ReturnType<PreviewRuntime['connection']>, entity: EntityName): Stream {
  const c = handle.config;
  if (!c.entities.includes(entity))
    throw new ConfigError(
      `--entity ${entity} is not synced for connection "${c.id}" (its entities: ${c.entities.join(', ')})`,
    );
  return handle.connector.streams[entity];
}

/** Where the read starts: `from`, else the stored checkpoint, else the stream's beginning. */
async function startOf(
  rt: PreviewRuntime,
  stream: Stream,
  request: PreviewRequest,
): Promise<{ state: StreamState; start: PreviewResult['start'] }> {
  if (request.from) {
    const state = stream.initialState(request.from);
    return { state, start: { from: '--from', cursor: state.cursor } };
  }
  const cp = await rt.checkpoints.get<StreamState>(request.connectionId, request.entity);
  const state = cp ? cp.state : stream.initialState(undefined);
  return { state, start: { from: cp ? 'checkpoint' : 'beginning', cursor: state.cursor } };
}

/** One record as the pull would classify it, with the billing body it would send. */
function previewRecord(
  stream: Stream,
  record: SourceRecord,
  ledger: LedgerEntry | undefined,
  mapCtx: MapContext,
  options: { syncDrafts: boolean },
): PreviewRecord {
  const base = { erpId: record.id, version: record.version };
  const decision = classifyRecord(record, ledger, options);
  if (decision.kind === 'draft' && returnedToDraft(record, ledger))
    // As the pull would: billing holds it as issued, so it is quarantined for a person.
    return {
      ...base,
      outcome: 'quarantine',
      quarantine: { reason: RETURNED_TO_DRAFT, message: returnedToDraftMessage(record, ledger) },
    };
  if (decision.kind === 'not-for-billing' || decision.kind === 'draft')
    return { ...base, outcome: 'skipped', skipped: { kind: decision.kind, reason: record.notForBilling } };
  if (decision.kind === 'deleted') return { ...base, outcome: 'deleted' };
  const mapped = stream.map(record, mapCtx);
  if (!mapped.ok)
    return {
      ...base,
      outcome: 'quarantine',
      quarantine: { reason: mapped.reason, message: mapped.message, field: mapped.field },
    };
  const hash = contentHash(mapped.value);
  const after = classifyMapped(record, ledger, { ok: true, hash });
  const outcome: PreviewOutcome =
    after.kind === 'enqueue' ? (ledger ? 'changed' : 'new') : after.kind === 'unchanged' ? 'unchanged' : 'stale';
  const fields = fieldsOf(mapped.value, mapCtx.fields ?? []);
  return { ...base, outcome, ...headline(mapped.value), hash, body: mapped.value, ...(fields ? { fields } : {}) };
}

/** The body's tags, and its metaData keys that a `fields` rule writes; undefined when there are neither. */
function fieldsOf(body: BillingBody, rules: readonly FieldRule[]): PreviewRecord['fields'] {
  const doc = body.kind === 'invoice' ? body.invoice : body.kind === 'credit-note' ? body.creditNote : body.customer;
  const keys = new Set(rules.flatMap((r) => (r.to.metaData !== undefined ? [r.to.metaData] : [])));
  const meta = Object.fromEntries(Object.entries(doc.metaData ?? {}).filter(([k]) => keys.has(k)));
  const tags = doc.tags && Object.keys(doc.tags).length > 0 ? doc.tags : undefined;
  const metaData = Object.keys(meta).length > 0 ? meta : undefined;
  if (!tags && !metaData) return undefined;
  return { ...(tags ? { tags } : {}), ...(metaData ? { metaData } : {}) };
}

/** The number, total and currency a one-line summary shows, whatever kind of body it is. */
function headline(body: BillingBody): Pick<PreviewRecord, 'number' | 'total' | 'currency'> {
  switch (body.kind) {
    case 'invoice':
      return {
        number: body.invoice.invoiceNumber,
        total: body.invoice.invoiceTotal,
        currency: body.invoice.invoiceCurrency,
      };
    case 'credit-note':
      return {
        number: body.creditNote.creditNoteNumber,
        total: body.creditNote.creditNoteTotal,
        currency: body.creditNote.creditNoteCurrency,
      };
    case 'customer':
      return { number: body.customer.name ?? body.customer.buyerId, currency: body.customer.currency };
  }
}

function countOf(records: readonly PreviewRecord[]): Record<PreviewOutcome, number> {
  const counts: Record<PreviewOutcome, number> = {
    new: 0,
    changed: 0,
    unchanged: 0,
    stale: 0,
    quarantine: 0,
    deleted: 0,
    skipped: 0,
  };
  for (const r of records) counts[r.outcome]++;
  return counts;
}
