import type { Command } from 'commander';
import { isEntityName } from '../../src/connector/entities.js';
import { ConfigError } from '../../src/errors/index.js';
import {
  previewStream,
  type PreviewOutcome,
  type PreviewRecord,
  type PreviewResult,
} from '../../operations/preview-stream.js';
import { formatDays } from '../../src/pipeline/quota-projection.js';
import { withRuntime } from '../context.js';
import { instantArg, intOption } from '../parse-args.js';
import { requiredOption } from '../required-option.js';

/** `--from 2025-06-01` (midnight UTC) or an ISO instant with its zone: the cursor a read starts from. */
const fromCursor = (value: string): string => instantArg(value, '--from');

const WHAT: Record<PreviewOutcome, string> = {
  new: 'would be sent (new)',
  changed: 'would be sent (changed)',
  unchanged: 'unchanged (billing holds this content; skipped)',
  stale: 'stale (billing holds a newer version; skipped)',
  quarantine: 'would be QUARANTINED',
  deleted: 'deleted in the source (marked for reconciliation; nothing sent)',
  skipped: 'skipped',
};

/** `  tags Region=West; metaData poNumber=PO-7` after a record's line: what its field mapping sends. */
function fieldsText(p: PreviewRecord): string {
  const pairs = (o: Record<string, unknown> | undefined) =>
    Object.entries(o ?? {})
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(', ');
  const parts = [
    ...(p.fields?.tags ? [`tags ${pairs(p.fields.tags)}`] : []),
    ...(p.fields?.metaData ? [`metaData ${pairs(p.fields.metaData)}`] : []),
  ];
  return parts.length ? `  ${parts.join('; ')}` : '';
}

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
      console.log(`  ${p.erpId}  ${p.number ?? '-'}${amount}  v${p.version}  ${WHAT[p.outcome]}${fieldsText(p)}`);
    }
  }
  const counts = Object.entries(r.counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  console.log(
    `${r.records.length} record(s)${counts ? `: ${counts}` : ''}${r.limited ? ' — stopped at --limit; more may follow' : ' — the end of the source'}`,
  );
  const f = r.firstSync;
  if (f)
    console.log(
      `first sync: ${f.records} ${r.entity} in the source, ~${f.calls} calls: about ${formatDays(f.days)} at the ${f.limitedBy === 'day' ? 'daily cap' : f.limitedBy === 'month' ? "app's month budget" : 'minute limit'}`,
    );
}

/** `erp-sync preview --connection ID [--entity E] [--from DATE] [--limit N] [--json]`: a dry run of a pull. */
export function registerPreviewCommand(program: Command): void {
  program
    .command('preview')
    .description('dry run: read the source, map, and print what would be sent or quarantined — writes nothing')
    .addOption(requiredOption('--connection <id>', 'connection id from the config'))
    .option('--entity <name>', 'invoices | credit-notes | customers', 'invoices')
    .option(
      '--from <date>',
      'read from this date (YYYY-MM-DD, UTC) or ISO instant with its zone instead of the checkpoint',
    )
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
