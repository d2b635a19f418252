import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import type { ConnectionHandle, Runtime } from '../../jobs/runtime.js';
import { ENTITY_NAMES, type EntityName, isEntityName } from '../../src/connector/entities.js';
import type { StreamState } from '../../src/connector/types.js';
import { ConfigError } from '../../src/errors/index.js';
import { withRuntime } from '../context.js';
import { requiredOption } from '../required-option.js';
import { registerStateRebindCommand } from './state-rebind.js';

type Opts = { connection: string; entity?: string; cursor?: string; yes?: boolean; json?: boolean; config?: string };
type StateRuntime = Pick<Runtime, 'connection' | 'checkpoints' | 'locks'>;

/** One stream's incremental checkpoint as `state show` prints it. */
export interface StreamCheckpoint {
  connection: string;
  entity: EntityName;
  /** null: no checkpoint, or one at the beginning; the next pull reads from the stream's initial state. */
  cursor: string | null;
  state: StreamState | null;
  savedAt: string | null;
  /** How often the stream was rewound (a repair, a replay, `state set` backwards). */
  rewinds: number;
}

function entityOf(value: string | undefined, connection: ConnectionHandle): EntityName {
  if (value === undefined) throw new ConfigError('--entity is required here');
  if (!isEntityName(value)) throw new ConfigError(`--entity must be one of ${ENTITY_NAMES.join(', ')}, got "${value}"`);
  if (!connection.config.entities.includes(value))
    throw new ConfigError(
      `--entity ${value} is not synced for connection "${connection.config.id}" (its entities: ${connection.config.entities.join(', ')})`,
    );
  return value;
}

/** An ISO instant, normalised to UTC with milliseconds (the form every stream's cursor has). */
function cursorOf(value: string | undefined): string {
  if (value === undefined) throw new ConfigError('state set needs --cursor ISO (e.g. 2025-06-01T00:00:00Z)');
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms))
    throw new ConfigError(`--cursor expects an ISO instant such as 2025-06-01T00:00:00Z, got "${value}"`);
  return new Date(ms).toISOString();
}

export async function readCheckpoint(
  rt: StateRuntime,
  connection: string,
  entity: EntityName,
): Promise<StreamCheckpoint> {
  const { checkpoint, rewinds } = await rt.checkpoints.read<StreamState>(connection, entity);
  return {
    connection,
    entity,
    cursor: checkpoint?.state.cursor ?? null,
    state: checkpoint?.state ?? null,
    savedAt: checkpoint ? new Date(checkpoint.savedAt).toISOString() : null,
    rewinds,
  };
}

/**
 * Writes a stream's checkpoint while holding the lock of its incremental pull: no pull of the stream
 * runs meanwhile, and none can save over the write (a pull that started before would have held the
 * lock). A stream whose pull is running is refused, to be tried again once it finishes.
 */
async function withStreamLocked<T>(
  rt: StateRuntime,
  connection: string,
  entity: EntityName,
  fn: () => Promise<T>,
): Promise<T> {
  const release = await rt.locks.tryAcquireIncrementalPull(connection, entity, `erp-sync-state-${process.pid}`, 60_000);
  if (!release)
    throw new ConfigError(`a pull of ${connection} ${entity} is running now; try again when it has finished`);
  try {
    return await fn();
  } finally {
    await release();
  }
}

export type SetOutcome = 'rewound' | 'moved-forward' | 'unchanged';

/**
 * Sets the cursor. Backwards: the Checkpoints store's rewind (keeps the rest of the stream's state and
 * makes a running pull's later save be refused, so the rewind stands). Forwards, or where there is no
 * checkpoint: the stream's own initial state at that cursor, saved while no pull of it runs (the
 * store has no forward operation: only pulls move a cursor forward, after their page's jobs are
 * durable). Records modified before a forward cursor are not read again by incremental pulls.
 */
export async function setCursor(
  rt: StateRuntime,
  connection: string,
  entity: EntityName,
  cursor: string,
): Promise<SetOutcome> {
  const stream = rt.connection(connection).connector.streams[entity];
  const current = (await rt.checkpoints.get<StreamState>(connection, entity))?.state.cursor;
  if (current === cursor) return 'unchanged';
  if (
    typeof current === 'string' &&
    cursor < current &&
    (await rt.checkpoints.rewindCheckpoint(connection, entity, cursor))
  )
    return 'rewound';
  return withStreamLocked(rt, connection, entity, async (): Promise<SetOutcome> => {
    await rt.checkpoints.save(connection, entity, stream.initialState(cursor));
    return 'moved-forward';
  });
}

/**
 * Clears the checkpoint: the stream's initial state (cursor null), so the next pull reads the stream
 * from its beginning, as if it had never run. The store keeps no "absent" form a pull treats
 * differently: a null cursor is what a pull starts from without a checkpoint.
 */
export async function clearCheckpoint(rt: StateRuntime, connection: string, entity: EntityName): Promise<void> {
  const stream = rt.connection(connection).connector.streams[entity];
  await withStreamLocked(rt, connection, entity, () =>
    rt.checkpoints.save(connection, entity, stream.initialState(undefined)),
  );
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
  const common = (c: Command) =>
    c
      .addOption(requiredOption('--connection <id>', 'connection id from the config'))
      .option('--json', 'print JSON')
      .option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)');

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

  common(
    state
      .command('set')
      .description('set the cursor: backwards re-reads records modified since; forwards skips those before it'),
  )
    .addOption(requiredOption('--entity <name>', 'invoices | credit-notes | customers'))
    .addOption(
      requiredOption(
        '--cursor <iso>',
        'the instant the next pull reads from (minus the lookback), e.g. 2025-06-01T00:00:00Z',
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
        const what = {
          rewound: 'rewound',
          'moved-forward': 'moved forwards',
          unchanged: 'already at that cursor; nothing changed',
        }[outcome];
        console.log(
          `${o.connection} ${entity}: ${what} (${before.cursor ?? 'no cursor'} → ${after.cursor}); the next pull reads from there`,
        );
      });
    });

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

  registerStateRebindCommand(state, confirm);
}
