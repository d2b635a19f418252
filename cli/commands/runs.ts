import { type Command, InvalidArgumentError } from 'commander';
import { ENTITY_NAMES, isEntityName } from '../../src/connector/entities.js';
import { RUN_KINDS, type RunFilter, type RunKind } from '../../src/pipeline/run-history.js';
import { withRuntime } from '../context.js';
import { intOption } from '../parse-args.js';
import { requiredOption } from '../required-option.js';

type Opts = { connection: string; entity?: string; kind?: RunKind; limit: number; json?: boolean; config?: string };

/** A run as `runs --json` prints it: instants as ISO, and how long it took. */
import { listRuns, type PrintedRun } from '../../operations/list-runs.js';

const DEFAULT_LIMIT = 20;

function entityOption(value: string): string {
  if (!isEntityName(value))
    throw new InvalidArgumentError(`--entity must be one of ${ENTITY_NAMES.join(', ')}, got "${value}"`);
  return value;
}

function kindOption(value: string): RunKind {
  if (!(RUN_KINDS as readonly string[]).includes(value))
    throw new InvalidArgumentError(`--kind must be one of ${RUN_KINDS.join(', ')}, got "${value}"`);
  return value as RunKind;
}

function what(r: PrintedRun): string {
  const days = r.window ? `${r.window.from}..${r.window.to}` : r.lastDays ? `last ${r.lastDays} days` : '';
  if (r.kind === 'reconcile') return `${days}${r.deep ? ' (deep)' : ''}${r.jobId ? '' : ' by erp-sync reconcile'}`;
  return r.kind === 'backfill-window' ? `${r.entity} ${days}` : (r.entity ?? '');
}

function countsText(r: PrintedRun): string {
  const c = r.counts;
  if (r.kind === 'reconcile') {
    if (r.outcome !== 'ok') return '';
    const NOT_DRIFT = new Set(['total', 'needsPerson', 'checkedBilling', 'checkedLedger', 'checkedSource']);
    const kinds = Object.entries(c).filter(([k, n]) => !NOT_DRIFT.has(k) && n > 0);
    const drift = c.total
      ? `drift ${c.total} (${kinds.map(([k, n]) => `${k} ${n}`).join(', ')}; ${c.needsPerson} need a person)`
      : 'clean';
    return `${drift} · checked billing ${c.checkedBilling}, ledger ${c.checkedLedger}${r.deep ? `, source ${c.checkedSource}` : ''}`;
  }
  if (r.outcome === 'failed') {
    const done = Object.entries(c).map(([k, n]) => `${k} ${n}`);
    return done.length ? `before failing: ${done.join(', ')}` : '';
  }
  if (r.outcome === 'skipped') return '';
  const parts = [
    `pulled ${c.pulled}`,
    `enqueued ${c.enqueued}`,
    `unchanged ${c.unchanged}`,
    `quarantined ${c.quarantined}`,
    `deleted ${c.deleted}`,
  ];
  if (c.notForBilling) parts.push(`not for billing ${c.notForBilling}`);
  parts.push(`pages ${c.pages}`);
  return parts.join(' · ');
}

/** Why a run failed or was skipped, under its row. */
function detail(r: PrintedRun): string | undefined {
  if (r.outcome === 'skipped') return `skipped: ${r.reason ?? 'nothing to do'}`;
  if (r.outcome !== 'failed') return undefined;
  return `failed (${r.retrying ? 'will be retried' : 'not retried'}): ${r.error ?? 'no message'}`;
}

function printTable(connection: string, runs: PrintedRun[], keep: number, filter: RunFilter): void {
  const filters = [filter.kind && `--kind ${filter.kind}`, filter.entity && `--entity ${filter.entity}`]
    .filter(Boolean)
    .join(' ');
  if (!runs.length)
    return void console.log(`no runs of ${connection}${filters ? ` matching ${filters}` : ''} recorded yet`);
  console.log(
    `runs of ${connection}${filters ? ` (${filters})` : ''}, newest first: ${runs.length} shown; the last ${keep} of each stream are kept`,
  );
  // A run that was a job's second or later attempt says so; its earlier, failed attempts are further down.
  const outcome = (r: PrintedRun) => (r.attempt && r.attempt > 1 ? `${r.outcome}, attempt ${r.attempt}` : r.outcome);
  const rows = runs.map((r) => [
    r.endedAt.replace(/\.\d{3}Z$/, 'Z'),
    r.kind,
    what(r),
    outcome(r),
    `${(r.durationMs / 1000).toFixed(1)} s`,
    countsText(r),
  ]);
  const header = ['ended', 'kind', 'stream', 'outcome', 'took', 'counts'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : i === 4 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  console.log(`  ${line(header)}`);
  for (const [i, r] of runs.entries()) {
    console.log(`  ${line(rows[i]!)}`);
    const d = detail(r);
    if (d) console.log(`  ${''.padEnd(widths[0]!)}  ↳ ${d}`);
  }
}

/** `erp-sync runs --connection ID [--entity E] [--kind K] [--limit N] [--json]`: what the last pulls and reconciliations did. */
export function registerRunsCommand(program: Command): void {
  program
    .command('runs')
    .description(
      'the last runs of each pull, backfill window and reconciliation of a connection, newest first: counts, outcome, error',
    )
    .addOption(requiredOption('--connection <id>', 'connection id from the config'))
    .option(
      '--entity <name>',
      'only pulls and backfill windows of this entity: invoices | credit-notes | customers',
      entityOption,
    )
    .option('--kind <kind>', `only runs of this kind: ${RUN_KINDS.join(' | ')}`, kindOption)
    .option('--limit <n>', 'at most this many runs', intOption('--limit', 1), DEFAULT_LIMIT)
    .option('--json', 'print JSON')
    .option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)')
    .action(async (o: Opts) =>
      withRuntime(o.config, async (rt) => {
        const filter: RunFilter = { kind: o.kind, entity: o.entity };
        const runs = await listRuns(rt, o.connection, filter, o.limit);
        if (o.json) return void console.log(JSON.stringify({ connection: o.connection, runs }, null, 2));
        printTable(o.connection, runs, rt.runHistory.keep, filter);
      }),
    );
}
