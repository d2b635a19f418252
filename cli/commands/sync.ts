import type { Command } from 'commander';
import { startWorkers } from '../../app/worker-service.js';
import { type SyncNowPull, syncNow, syncNowEntities } from '../../operations/sync-now.js';
import { ENTITY_NAMES } from '../../src/connector/entities.js';
import { AUDITED } from '../../operations/audited-actions.js';
import { audited } from '../../operations/audited.js';
import { cliAuditor, loadAppConfig, withRuntime } from '../context.js';
import { requiredOption } from '../required-option.js';
import { configuredConnection } from './connections.js';

export type { SyncNowPull } from '../../operations/sync-now.js';

type Opts = { connection: string; entity?: string; now?: boolean; wait?: boolean; json?: boolean; config?: string };

function describe(connection: string, p: SyncNowPull): string {
  if (p.state === 'enqueued') return `${connection} ${p.entity}: pull enqueued (job ${p.jobId})`;
  if (p.state === 'failed') return `${connection} ${p.entity}: pull FAILED: ${p.error}`;
  const r = p.result;
  if (!r) return `${connection} ${p.entity}: pull completed`;
  return (
    `${connection} ${p.entity}: pulled ${r.pulled}, enqueued ${r.enqueued}, unchanged ${r.unchanged}, quarantined ${r.quarantined}, ` +
    `deleted ${r.deleted}${r.notForBilling ? `, not for billing ${r.notForBilling}` : ''} in ${r.pages} page(s); cursor ${r.cursor ?? '(none)'}`
  );
}

/** `erp-sync sync --connection ID [--entity E] --now [--wait] [--json]`: an incremental pull now. */
export function registerSyncCommand(program: Command): void {
  const cmd = program
    .command('sync')
    .description(
      'pull a connection now: an incremental pull of each entity (or one), at the priority of scheduled pulls',
    )
    .addOption(requiredOption('--connection <id>', 'connection id from the config'))
    .option('--entity <name>', `${ENTITY_NAMES.join(' | ')} (default: every entity of the connection)`)
    .option('--now', 'enqueue the pulls now (required: the only mode so far)')
    .option('--wait', 'wait for the pulls to finish and print what each read (not for the upserts they enqueue)')
    .option('--json', 'print JSON')
    .option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)');
  cmd.action(async (o: Opts) => {
    if (!o.now)
      cmd.error(`option '--now' is required: sync --now is the only mode so far`, {
        exitCode: 2,
        code: 'commander.missingMandatoryOptionValue',
      });
    const config = await loadAppConfig(o.config);
    const connection = config.connections.find((c) => c.id === configuredConnection(config, o.connection))!;
    const entities = syncNowEntities(connection, o.entity);
    await withRuntime(o.config, async (rt) => {
      const wait = o.wait
        ? {
            startPullWorkers: () => startWorkers(rt, ['pull']),
            onInProcessWorkers: () => {
              if (!o.json)
                console.error('no running pull workers found on this Redis: running the pulls in this process');
            },
          }
        : undefined;
      const about = { action: AUDITED.sync.action, connection: connection.id };
      const r = await audited(
        cliAuditor(rt),
        about,
        () => syncNow(rt, connection.id, entities, wait),
        (x) =>
          x.state === 'paused'
            ? { outcome: 'conflict', detail: AUDITED.sync.paused(connection.id) }
            : { detail: AUDITED.sync.detail(x.pulls) },
      );
      if (r.state === 'paused') {
        console.error(
          `erp-sync: connection ${connection.id} is paused since ${new Date(r.pause.since).toISOString()}${r.pause.reason ? ` (${r.pause.reason})` : ''}: ` +
            `nothing enqueued; resume it first: erp-sync connections resume ${connection.id}`,
        );
        process.exitCode = 1;
        return;
      }
      if (r.workers === 'none' && !o.json)
        console.error('no running pull workers found on this Redis: the pulls run when a worker starts');
      if (o.json) console.log(JSON.stringify({ connection: connection.id, pulls: r.pulls }, null, 2));
      else for (const p of r.pulls) console.log(describe(connection.id, p));
      process.exitCode = r.pulls.some((p) => p.state === 'failed') ? 1 : 0;
    });
  });
}
