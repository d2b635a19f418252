import type { Command } from 'commander';
import type { Runtime } from '../../jobs/runtime.js';
import type { BillingBody } from '../../src/connector/billing-body.js';
import { type EntityName, isEntityName } from '../../src/connector/entities.js';
import type { MapContext, StreamState } from '../../src/connector/types.js';
import { ConfigError } from '../../src/errors/index.js';
import { contentHash } from '../../src/pipeline/content-hash.js';
import { classifyMapped, classifyRecord } from '../../jobs/pull/classify-record.js';
import { RETURNED_TO_DRAFT, returnedToDraft, returnedToDraftMessage } from '../../jobs/draft-record.js';
import { withRuntime } from '../context.js';
import { intOption } from '../parse-args.js';
import { requiredOption } from '../required-option.js';

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

/** `--from 2025-06-01` (midnight UTC) or a full ISO instant: the cursor a read starts from. */
function fromCursor(value: string): string {
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00.000Z` : value;
  const ms = Date.parse(iso);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms))
    throw new ConfigError(`--from expects a date YYYY-MM-DD or an ISO instant, got "${value}"`);
  return new Date(ms).toISOString();
}

/**
 * Reads one stream as the next incremental pull would (from the stored checkpoint, or from `from`, up
 * to now − the settle delay), maps each record and compares it with the ledger, stopping after `limit`
 * records. Writes nothing: no billing call, no checkpoint, no quarantine entry, no job. (The read itself
 * goes through the connection's vendor client, which counts its calls against the vendor quota and may
 * refresh the access token, as any read does.)
 */
export async function previewStream(
  rt: Pick<Runtime, 'connection' | 'checkpoints' | 'ledger' | 'config' | 'logger'>,
  request: { connectionId: string; entity: EntityName; from?: string; limit: number },
): Promise<PreviewResult> {
  const handle = rt.connection(request.connectionId);
  const { config: c, connector } = handle;
  if (!c.entities.includes(request.entity))
    throw new ConfigError(
      `--entity ${request.entity} is not synced for connection "${c.id}" (its entities: ${c.entities.join(', ')})`,
    );
  const stream = connector.streams[request.entity];
  let start: PreviewResult['start'];
  let state: StreamState;
  if (request.from) {
    state = stream.initialState(request.from);
    start = { from: '--from', cursor: state.cursor };
  } else {
    const cp = await rt.checkpoints.get<StreamState>(c.id, request.entity);
    state = cp ? cp.state : stream.initialState(undefined);
    start = { from: cp ? 'checkpoint' : 'beginning', cursor: state.cursor };
  }
  const until = new Date(Date.now() - c.settleDelaySeconds * 1000);
  const ctx = handle.readContext({ logger: rt.logger, until });
  const mapCtx: MapContext = {
    connectionId: c.id,
    originSource: c.originSource,
    baseCurrency: handle.billing.baseCurrency,
    lookups: stream.lookups ? await stream.lookups(ctx) : {},
  };
  const records: PreviewRecord[] = [];
  let limited = false;
  read: for await (const page of stream.read(ctx, state)) {
    const known = await rt.ledger.getMany(
      c.id,
      request.entity,
      page.records.map((r) => r.id),
    );
    for (const [i, record] of page.records.entries()) {
      if (records.length >= request.limit) {
        limited = true;
        break read;
      }
      const base = { erpId: record.id, version: record.version };
      const ledger = known[i];
      const decision = classifyRecord(record, ledger, { syncDrafts: c.syncDrafts });
      if (decision.kind === 'draft' && returnedToDraft(record, ledger)) {
        // As the pull would: billing holds it as issued, so it is quarantined for a person.
        records.push({
          ...base,
          outcome: 'quarantine',
          quarantine: { reason: RETURNED_TO_DRAFT, message: returnedToDraftMessage(record, ledger) },
        });
        continue;
      }
      if (decision.kind === 'not-for-billing' || decision.kind === 'draft') {
        records.push({ ...base, outcome: 'skipped', skipped: { kind: decision.kind, reason: record.notForBilling } });
        continue;
      }
      if (decision.kind === 'deleted') {
        records.push({ ...base, outcome: 'deleted' });
        continue;
      }
      const mapped = stream.map(record, mapCtx);
      if (!mapped.ok) {
        records.push({
          ...base,
          outcome: 'quarantine',
          quarantine: { reason: mapped.reason, message: mapped.message, field: mapped.field },
        });
        continue;
      }
      const hash = contentHash(mapped.value);
      const after = classifyMapped(record, ledger, { ok: true, hash });
      const outcome: PreviewOutcome =
        after.kind === 'enqueue' ? (ledger ? 'changed' : 'new') : after.kind === 'unchanged' ? 'unchanged' : 'stale';
      records.push({ ...base, outcome, ...headline(mapped.value), hash, body: mapped.value });
    }
    if (records.length >= request.limit) {
      // The page ended exactly at the limit: whether more follow is not known without reading on.
      limited = true;
      break;
    }
  }
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
  return { connection: c.id, entity: request.entity, start, until: until.toISOString(), records, counts, limited };
}

const WHAT: Record<PreviewOutcome, string> = {
  new: 'would be sent (new)',
  changed: 'would be sent (changed)',
  unchanged: 'unchanged (billing holds this content; skipped)',
  stale: 'stale (billing holds a newer version; skipped)',
  quarantine: 'would be QUARANTINED',
  deleted: 'deleted in the source (marked for reconciliation; nothing sent)',
  skipped: 'skipped',
};

function printPreview(r: PreviewResult): void {
  const from = r.start.from === 'beginning' ? 'the beginning (no checkpoint)' : `${r.start.cursor} (${r.start.from})`;
  console.log(`preview ${r.connection} ${r.entity}: from ${from} to ${r.until}; nothing is written`);
  for (const p of r.records) {
    if (p.outcome === 'quarantine') {
      console.log(
        `  ${p.erpId}  v${p.version}  ${WHAT.quarantine}: ${p.quarantine!.reason}${p.quarantine!.field ? ` (${p.quarantine!.field})` : ''} — ${p.quarantine!.message}`,
      );
    } else if (p.outcome === 'deleted') {
      console.log(`  ${p.erpId}  v${p.version}  ${WHAT.deleted}`);
    } else if (p.outcome === 'skipped') {
      const why =
        p.skipped!.kind === 'draft'
          ? 'a draft (syncDrafts is off)'
          : `billing does not take it${p.skipped!.reason ? `: ${p.skipped!.reason}` : ''}`;
      console.log(`  ${p.erpId}  v${p.version}  ${WHAT.skipped} (${why})`);
    } else {
      const amount = p.total === undefined ? '' : `  ${p.total} ${p.currency ?? ''}`;
      console.log(`  ${p.erpId}  ${p.number ?? '-'}${amount}  v${p.version}  ${WHAT[p.outcome]}`);
    }
  }
  const counts = Object.entries(r.counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  console.log(
    `${r.records.length} record(s)${counts ? `: ${counts}` : ''}${r.limited ? ' — stopped at --limit; more may follow' : ' — the end of the source'}`,
  );
}

/** `erp-sync preview --connection ID [--entity E] [--from DATE] [--limit N] [--json]`: a dry run of a pull. */
export function registerPreviewCommand(program: Command): void {
  program
    .command('preview')
    .description('dry run: read the source, map, and print what would be sent or quarantined — writes nothing')
    .addOption(requiredOption('--connection <id>', 'connection id from the config'))
    .option('--entity <name>', 'invoices | credit-notes | customers', 'invoices')
    .option('--from <date>', 'read from this date (YYYY-MM-DD, UTC) or ISO instant instead of the checkpoint')
    .option('--limit <n>', 'stop after this many records', intOption('--limit', 1), 20)
    .option('--json', 'print the result as JSON, with the billing bodies that would be sent')
    .option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)')
    .action(
      async (o: {
        connection: string;
        entity: string;
        from?: string;
        limit: number;
        json?: boolean;
        config?: string;
      }) => {
        const entity = o.entity;
        if (!isEntityName(entity))
          throw new ConfigError(`--entity must be one of invoices, credit-notes, customers, got "${entity}"`);
        const from = o.from === undefined ? undefined : fromCursor(o.from);
        await withRuntime(o.config, async (rt) => {
          const result = await previewStream(rt, { connectionId: o.connection, entity, from, limit: o.limit });
          if (o.json) console.log(JSON.stringify(result, null, 2));
          else printPreview(result);
        });
      },
    );
}
