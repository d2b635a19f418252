import { type Command, InvalidArgumentError } from 'commander';
import { listHistory, type PrintedHistoryEntry } from '../../operations/list-history.js';
import { ENTITY_NAMES, isEntityName } from '../../src/connector/entities.js';
import { HISTORY_OUTCOMES, type HistoryOutcome } from '../../src/pipeline/record-history.js';
import { withRuntime } from '../context.js';
import { orderedRange } from '../ordered-range.js';
import { requiredOption } from '../required-option.js';

type Opts = {
  connection: string;
  since: Date;
  until?: Date;
  entity?: string;
  outcome?: HistoryOutcome[];
  json?: boolean;
  config?: string;
};

const INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** A day (YYYY-MM-DD, from its UTC midnight) or an instant with its zone (2026-11-27T09:00:00Z, …+05:30). */
function instantOption(flag: string) {
  return (value: string): Date => {
    const ms = INSTANT.test(value) ? Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value) : NaN;
    if (Number.isNaN(ms))
      throw new InvalidArgumentError(
        `${flag} expects a day YYYY-MM-DD or an instant with its zone (2026-11-27T09:00:00Z), got "${value}"`,
      );
    return new Date(ms);
  };
}

function outcomeOption(value: string, previous: HistoryOutcome[] = []): HistoryOutcome[] {
  if (!(HISTORY_OUTCOMES as readonly string[]).includes(value))
    throw new InvalidArgumentError(`--outcome must be one of ${HISTORY_OUTCOMES.join(', ')}, got "${value}"`);
  return [...previous, value as HistoryOutcome];
}

function entityOption(value: string): string {
  if (!isEntityName(value))
    throw new InvalidArgumentError(`--entity must be one of ${ENTITY_NAMES.join(', ')}, got "${value}"`);
  return value;
}

/** One history entry on one line: when, what, the version and content, billing's id, the job and path, the fields changed. */
export function historyLine(h: PrintedHistoryEntry): string {
  const parts = [h.at, h.outcome];
  if (h.version) parts.push(`v${h.version}`);
  if (h.hash) parts.push(`hash ${h.hash}`);
  if (h.billingId) parts.push(`billing ${h.billingId}`);
  if (h.by) parts.push(`by ${h.by}`);
  if (h.path) parts.push(`(${h.path})`);
  if (h.reason) parts.push(`reason ${h.reason}`);
  if (h.changed)
    parts.push(h.changed.length ? `changed: ${h.changed.join(', ')}` : 'changed: none of the compared fields');
  else if (h.outcome === 'written') parts.push('first write known');
  return parts.join(' ');
}

export function registerHistoryCommand(program: Command): void {
  program
    .command('history')
    .description(
      "what the sync wrote to billing for a connection in a period, for an auditor (from each record's history)",
    )
    .addOption(requiredOption('--connection <id>', 'connection id'))
    .addOption(
      requiredOption(
        '--since <time>',
        'from this day (YYYY-MM-DD, UTC) or instant (with its zone)',
        instantOption('--since'),
      ),
    )
    .option('--until <time>', 'up to this day or instant, exclusive (default: now)', instantOption('--until'))
    .option('--entity <name>', `only this entity (${ENTITY_NAMES.join(', ')})`, entityOption)
    .option(
      '--outcome <outcome>',
      `list this outcome instead of writes (repeatable: ${HISTORY_OUTCOMES.join(', ')})`,
      outcomeOption,
    )
    .option('--json', 'print JSON')
    .option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)')
    .action(async (o: Opts) => {
      // Checked before anything is read: a reversed range would list "0 written" (ordered-range.ts).
      if (o.until)
        orderedRange({ flag: '--since', value: o.since }, { flag: '--until', value: o.until }, { endExclusive: true });
      await withRuntime(o.config, async (rt) => {
        const r = await listHistory(rt, {
          connection: o.connection,
          since: o.since,
          until: o.until,
          entity: o.entity,
          outcomes: o.outcome,
        });
        if (o.json) return void console.log(JSON.stringify(r, null, 2));
        const what = o.outcome ? o.outcome.join(', ') : 'written';
        console.log(
          `${r.connection}: ${r.entries.length} ${what} of ${r.records} record(s) from ${r.since} to ${r.until}`,
        );
        if (r.since < r.keptSince)
          console.log(`  (history is kept from ${r.keptSince}: history.days; nothing older can be listed)`);
        for (const e of r.entries) console.log(`  ${e.entity}/${e.erpId} ${historyLine(e)}`);
      });
    });
}
