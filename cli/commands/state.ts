import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import type { ConnectionHandle } from '../../jobs/runtime.js';
import { clearCheckpoint } from '../../operations/clear-checkpoint.js';
import { readCheckpoint, type StreamCheckpoint } from '../../operations/read-checkpoint.js';
import { setCursor, type SetOutcome } from '../../operations/set-cursor.js';
import { ENTITY_NAMES, type EntityName, isEntityName } from '../../src/connector/entities.js';
import { ConfigError } from '../../src/errors/index.js';
import { withRuntime } from '../context.js';
import { instantArg } from '../parse-args.js';
import { requiredOption } from '../required-option.js';
import { registerStateRebindCommand } from './state-rebind.js';

type Opts = { connection: string; entity?: string; cursor?: string; yes?: boolean; json?: boolean; config?: string };

function entityOf(value: string | undefined, connection: ConnectionHandle): EntityName {
  if (value === undefined) throw new ConfigError('--entity is required here');
  if (!isEntityName(value)) throw new ConfigError(`--entity must be one of ${ENTITY_NAMES.join(', ')}, got "${value}"`);
  if (!connection.config.entities.includes(value))
    throw new ConfigError(
      `--entity ${value} is not synced for connection "${connection.config.id}" (its entities: ${connection.config.entities.join(', ')})`,
    );
  return value;
}

/** An ISO instant with its zone (or a day, UTC), normalised to UTC with milliseconds (the form every stream's cursor has). */
function cursorOf(value: string | undefined): string {
  if (value === undefined) throw new ConfigError('state set needs --cursor ISO (e.g. 2025-06-01T00:00:00Z)');
  return instantArg(value, '--cursor');
}

/** A yes from the person at the terminal, or --yes; anything else stops with exit 2 before any write. */
async function confirm(question: string, yes: boolean | undefined, flagHint: string): Promise<void> {
  if (yes) return;
  if (!process.stdin.isTTY || !process.stderr.isTTY)
    throw new ConfigError(`${flagHint}: not on a terminal, so pass --yes to confirm`);
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    if (!/^y(es)?$/i.test(answer.trim())) throw new ConfigError('cancelled: nothing was changed');
  } finally {
    rl.close();
  }
}

function describe(c: StreamCheckpoint): string {
  if (!c.state) return `${c.connection} ${c.entity}: no checkpoint; the next pull reads from the beginning`;
  const extra = Object.entries(c.state)
    .filter(([k]) => k !== 'cursor')
    .map(([k, v]) => `${k} ${JSON.stringify(v)}`)
    .join(', ');
  return `${c.connection} ${c.entity}: cursor ${c.cursor ?? '(none: the next pull reads from the beginning)'}  saved ${c.savedAt}  rewinds ${c.rewinds}${extra ? `  (${extra})` : ''}`;
}

/** `erp-sync state show|set|clear --connection ID --entity E`: the incremental checkpoints. */
export function registerStateCommand(program: Command): void {
  const state = program
    .command('state')
    .description(
      'incremental checkpoints (where the next pull of a stream starts): show, set, clear; rebind after a billing company change',
    );
  registerShow(state);
  registerSet(state);
  registerClear(state);
  registerStateRebindCommand(state, confirm);
}

/** The options every `state` subcommand takes. */
const common = (c: Command) =>
  c
    .addOption(requiredOption('--connection <id>', 'connection id from the config'))
    .option('--json', 'print JSON')
    .option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)');

function registerShow(state: Command): void {
  common(
    state.command('show').description("show a stream's checkpoint (every stream of the connection without --entity)"),
  )
    .option('--entity <name>', 'invoices | credit-notes | customers (default: every entity of the connection)')
    .action(async (o: Opts) =>
      withRuntime(o.config, async (rt) => {
        const handle = rt.connection(o.connection);
        const entities = o.entity === undefined ? handle.config.entities : [entityOf(o.entity, handle)];
        const out = [];
        for (const e of entities) out.push(await readCheckpoint(rt, o.connection, e));
        if (o.json) return void console.log(JSON.stringify(o.entity === undefined ? out : out[0], null, 2));
        for (const c of out) console.log(describe(c));
      }),
    );
}

const SET_OUTCOME: Record<SetOutcome, string> = {
  rewound: 'rewound',
  'moved-forward': 'moved forwards',
  unchanged: 'already at that cursor; nothing changed',
};

function registerSet(state: Command): void {
  common(
    state
      .command('set')
      .description('set the cursor: backwards re-reads records modified since; forwards skips those before it'),
  )
    .addOption(requiredOption('--entity <name>', 'invoices | credit-notes | customers'))
    .addOption(
      requiredOption(
        '--cursor <iso>',
        'the instant the next pull reads from (minus the lookback), with its zone (2025-06-01T00:00:00Z, …+05:30) or a day YYYY-MM-DD (UTC)',
      ),
    )
    .option('--yes', 'confirm moving the cursor forwards without a prompt (needed when not on a terminal)')
    .action(async (o: Opts) => {
      const cursor = cursorOf(o.cursor);
      await withRuntime(o.config, async (rt) => {
        const entity = entityOf(o.entity, rt.connection(o.connection));
        const before = await readCheckpoint(rt, o.connection, entity);
        if (before.cursor === null || cursor > before.cursor)
          await confirm(
            `Move ${o.connection} ${entity} forwards to ${cursor}? Records modified before it are not read again by incremental pulls.`,
            o.yes,
            `state set --cursor ${cursor} moves ${o.connection} ${entity} forwards (from ${before.cursor ?? 'the beginning'}) and skips what was modified before it`,
          );
        const outcome = await setCursor(rt, o.connection, entity, cursor);
        const after = await readCheckpoint(rt, o.connection, entity);
        if (o.json) return void console.log(JSON.stringify({ outcome, before, after }, null, 2));
        console.log(
          `${o.connection} ${entity}: ${SET_OUTCOME[outcome]} (${before.cursor ?? 'no cursor'} → ${after.cursor}); the next pull reads from there`,
        );
      });
    });
}

function registerClear(state: Command): void {
  common(state.command('clear').description('clear the checkpoint: the next pull reads the stream from its beginning'))
    .addOption(requiredOption('--entity <name>', 'invoices | credit-notes | customers'))
    .option('--yes', 'confirm without a prompt (needed when not on a terminal)')
    .action(async (o: Opts) =>
      withRuntime(o.config, async (rt) => {
        const entity = entityOf(o.entity, rt.connection(o.connection));
        const before = await readCheckpoint(rt, o.connection, entity);
        if (before.cursor === null) {
          if (o.json) return void console.log(JSON.stringify({ before, after: before }, null, 2));
          return void console.log(
            `${o.connection} ${entity}: no cursor to clear; the next pull reads from the beginning`,
          );
        }
        await confirm(
          `Clear the checkpoint of ${o.connection} ${entity} (cursor ${before.cursor ?? 'none'})? The next pull reads the whole stream again.`,
          o.yes,
          `state clear makes the next pull of ${o.connection} ${entity} read the whole stream again`,
        );
        await clearCheckpoint(rt, o.connection, entity);
        const after = await readCheckpoint(rt, o.connection, entity);
        if (o.json) return void console.log(JSON.stringify({ before, after }, null, 2));
        console.log(
          `${o.connection} ${entity}: checkpoint cleared (was ${before.cursor ?? 'no cursor'}); the next pull reads from the beginning`,
        );
      }),
    );
}
