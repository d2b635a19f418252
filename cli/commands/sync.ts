import { setTimeout as sleep } from 'node:timers/promises';
import type { Command } from 'commander';
import { enqueuePullsNow, type PullNow } from '../../jobs/enqueue-pulls-now.js';
import type { PullResult } from '../../jobs/pull.js';
import type { Runtime } from '../../jobs/runtime.js';
import { startWorkers } from '../../jobs/worker-service.js';
import { ENTITY_NAMES, type EntityName, isEntityName } from '../../src/connector/entities.js';
import { ConfigError } from '../../src/errors/index.js';
import { loadAppConfig, withRuntime } from '../context.js';
import { requiredOption } from '../required-option.js';
import { configuredConnection } from './connections.js';

type Opts = { connection: string; entity?: string; now?: boolean; wait?: boolean; json?: boolean; config?: string };

/** How a pull enqueued by `sync --now` ended (with --wait), or that it is enqueued. */
export interface SyncNowPull extends PullNow {
  state: 'enqueued' | 'completed' | 'failed';
  result?: PullResult;
  error?: string;
}

/** Polls the pulls' states until each has completed or failed (a pull that is gone counts as completed). */
async function waitForPulls(rt: Pick<Runtime, 'queues'>, pulls: PullNow[]): Promise<SyncNowPull[]> {
  for (;;) {
    const states = await Promise.all(pulls.map((p) => rt.queues.pull.getJobState(p.jobId)));
    if (states.every((s) => s === 'completed' || s === 'failed' || s === 'unknown')) {
      return Promise.all(
        pulls.map(async (p, i): Promise<SyncNowPull> => {
          const job = await rt.queues.pull.getJob(p.jobId);
          if (states[i] === 'failed') return { ...p, state: 'failed', error: job?.failedReason ?? 'failed' };
          return { ...p, state: 'completed', ...(job?.returnvalue ? { result: job.returnvalue as PullResult } : {}) };
        }),
      );
    }
    await sleep(250);
  }
}

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
    .description('pull a connection now: an incremental pull of each entity (or one), at the priority of scheduled pulls')
    .addOption(requiredOption('--connection <id>', 'connection id from the config'))
    .option('--entity <name>', `${ENTITY_NAMES.join(' | ')} (default: every entity of the connection)`)
    .option('--now', 'enqueue the pulls now (required: the only mode so far)')
    .option('--wait', 'wait for the pulls to finish and print what each read (not for the upserts they enqueue)')
    .option('--json', 'print JSON')
    .option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)');
  cmd.action(async (o: Opts) => {
    if (!o.now) cmd.error(`option '--now' is required: sync --now is the only mode so far`, { exitCode: 2, code: 'commander.missingMandatoryOptionValue' });
    const config = await loadAppConfig(o.config);
    const connection = config.connections.find((c) => c.id === configuredConnection(config, o.connection))!;
    let entities: EntityName[] = [...connection.entities];
    if (o.entity !== undefined) {
      if (!isEntityName(o.entity)) throw new ConfigError(`--entity must be one of ${ENTITY_NAMES.join(', ')}, got "${o.entity}"`);
      if (!connection.entities.includes(o.entity))
        throw new ConfigError(`--entity ${o.entity} is not synced for connection "${connection.id}" (its entities: ${connection.entities.join(', ')})`);
      entities = [o.entity];
    }
    await withRuntime(o.config, async (rt) => {
      const control = await rt.connectionControl.state(connection.id);
      if (control.state === 'paused') {
        console.error(
          `erp-sync: connection ${connection.id} is paused since ${new Date(control.since).toISOString()}${control.reason ? ` (${control.reason})` : ''}: ` +
            `nothing enqueued; resume it first: erp-sync connections resume ${connection.id}`,
        );
        process.exitCode = 1;
        return;
      }
      const enqueued = await enqueuePullsNow(rt, connection.id, entities, 'now');
      let pulls: SyncNowPull[] = enqueued.map((p) => ({ ...p, state: 'enqueued' }));
      if (o.wait) {
        const own = (await rt.queues.pull.getWorkersCount()) === 0 ? startWorkers(rt, ['pull']) : undefined;
        if (own && !o.json) console.error('no running pull workers found on this Redis: running the pulls in this process');
        try {
          pulls = await waitForPulls(rt, enqueued);
        } finally {
          await own?.stop(5_000);
        }
      } else if ((await rt.queues.pull.getWorkersCount()) === 0 && !o.json) {
        console.error('no running pull workers found on this Redis: the pulls run when a worker starts');
      }
      if (o.json) console.log(JSON.stringify({ connection: connection.id, pulls }, null, 2));
      else for (const p of pulls) console.log(describe(connection.id, p));
      process.exitCode = pulls.some((p) => p.state === 'failed') ? 1 : 0;
    });
  });
}
