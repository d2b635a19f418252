import type { Command } from 'commander';
import { ENTITY_NAMES, isEntityName } from '../../src/connector/entities.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { readBackfillSummary, runBacklog } from '../../jobs/backfill/backfill-processor.js';
import type { BackfillSummary } from '../../jobs/backfill/types.js';
import { startBackfill } from '../../operations/start-backfill.js';
import { failedUpsertHelpers } from '../../app/job-helpers.js';
import { BILLING } from '../../jobs/admission/billing-outage.js';
import { startWorkers } from '../../app/worker-service.js';
import { addDays, utcDate } from '../../src/billing/dates.js';
import { ConfigError } from '../../src/errors/index.js';
import { withRuntime } from '../context.js';
import { orderedRange } from '../ordered-range.js';
import { isoDate } from '../parse-args.js';
import { requiredOption } from '../required-option.js';
import { progressReporter } from '../progress.js';

/** `erp-sync backfill --connection ID --entity invoices|credit-notes|customers|all --from DATE [--to DATE]` */
export function registerBackfillCommand(program: Command): void {
  program
    .command('backfill')
    .description('sync history for a date range, in resumable windows; waits and prints a summary')
    .addOption(requiredOption('--connection <id>', 'connection id from the config'))
    .option('--entity <name>', 'invoices | credit-notes | customers | all', 'all')
    .addOption(requiredOption('--from <date>', 'first document date, YYYY-MM-DD'))
    .option('--to <date>', 'last document date, YYYY-MM-DD (default: today, UTC)')
    .option('--restart', 'start a new run instead of resuming the previous one for the same range')
    .option(
      '--reread',
      'read every record of the range again, even those billing holds at the same version (after a fields mapping change)',
    )
    .option('--json', 'print the summary as JSON')
    .option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)')
    .action(
      async (opts: {
        connection: string;
        entity: string;
        from: string;
        to?: string;
        restart?: boolean;
        reread?: boolean;
        json?: boolean;
        config?: string;
      }) => {
        if (opts.entity !== 'all' && !isEntityName(opts.entity))
          throw new ConfigError(`--entity must be one of ${ENTITY_NAMES.join(', ')} or all, got "${opts.entity}"`);
        const entities = opts.entity === 'all' ? [...ENTITY_NAMES] : [opts.entity];
        const { from, to } = orderedRange(
          { flag: '--from', value: isoDate(opts.from, '--from') },
          { flag: '--to', value: isoDate(opts.to ?? utcDate(Date.now()), '--to') },
        );
        // Each day is a window of vendor calls: a far-future --to spends the vendor's quota on empty days.
        // Tomorrow is allowed (a vendor's local date may be ahead of UTC); later documents are post-dated
        // and reach billing through the incremental sync, which reads by modification time.
        const latest = addDays(utcDate(Date.now()), 1);
        if (to > latest)
          throw new ConfigError(
            `--to ${to} is in the future (latest: ${latest}); post-dated documents are synced by the incremental pull`,
          );
        await withRuntime(opts.config, async (rt) => {
          const summary = await runBackfill(
            rt,
            { connectionId: opts.connection, entities, from, to, ...(opts.reread ? { reread: true } : {}) },
            { restart: opts.restart, quiet: opts.json },
          );
          if (opts.json) console.log(JSON.stringify(summary, null, 2));
          else printSummary(summary);
          process.exitCode = summary.quarantinedTotal > 0 || summary.failedWindows?.length ? 1 : 0;
        });
      },
    );
}

export interface BackfillReport extends BackfillSummary {
  runId: string;
  connection: string;
  from: string;
  to: string;
  alreadyDone: boolean;
  quarantinedTotal: number;
  seconds: number;
}

type BackfillRuntime = import('../../jobs/runtime.js').Runtime;
type Progress = ReturnType<typeof progressReporter>;

/** Adds the flow, runs in-process workers if none are running, waits for the windows and the upserts. */
export async function runBackfill(
  rt: BackfillRuntime,
  req: import('../../jobs/backfill/types.js').BackfillRequest,
  options: { restart?: boolean; quiet?: boolean } = {},
): Promise<BackfillReport> {
  const started = Date.now();
  const { runId, children, alreadyDone } = await startBackfill(rt, req, { restart: options.restart });
  const ownWorkers = await workersUnlessRunning(rt, options.quiet);
  const progress = options.quiet ? undefined : progressReporter(`backfill ${req.connectionId}`);
  let result: BackfillSummary;
  try {
    result = await waitForBackfill(rt, runId, children, progress);
  } finally {
    await ownWorkers?.stop(5_000);
  }
  const quarantinedTotal = await rt.quarantine.count(req.connectionId);
  return {
    ...result,
    runId,
    connection: req.connectionId,
    from: req.from,
    to: req.to,
    alreadyDone,
    quarantinedTotal,
    seconds: (Date.now() - started) / 1000,
  };
}

/** Workers of the backfill's queues in this process when this Redis has none running (stopped once it is done). */
async function workersUnlessRunning(rt: BackfillRuntime, quiet: boolean | undefined) {
  if ((await rt.queues.pull.getWorkersCount()) > 0 && (await rt.queues.upsert.getWorkersCount()) > 0) return undefined;
  const workers = startWorkers(rt, ['pull', 'upsert', 'backfill']);
  if (!quiet) console.error('no running workers found on this Redis: running them in this process');
  return workers;
}

/**
 * Polls the run until its windows are done and every upsert it enqueued is written, drawing the bar;
 * returns its summary, or throws when the run failed.
 */
async function waitForBackfill(
  rt: BackfillRuntime,
  runId: string,
  children: number,
  progress: Progress | undefined,
): Promise<BackfillSummary> {
  const backlog = backlogCounter(rt, runId);
  let total = children;
  let result: BackfillSummary | undefined;
  try {
    for (;;) {
      const parent = await rt.queues.backfill.getJob(runId);
      const state = parent ? await parent.getState() : 'unknown';
      const deps = parent ? await parent.getDependenciesCount() : { processed: 0, unprocessed: 0 };
      total = children || (deps.processed ?? 0) + (deps.unprocessed ?? 0);
      const records = progress && parent ? await recordsRead(rt, runId, await parent.getChildrenValues()) : 0;
      const counted = await backlog.countIfDue(state === 'completed');
      progress?.update({ done: deps.processed ?? 0, total, records, detail: backlog.detail() });
      if (state === 'failed') throw new Error(`backfill ${runId} failed: ${parent?.failedReason}`);
      if (state === 'completed' && counted && backlog.remaining() === 0) {
        // Read the job again: the copy fetched above may predate its completion (state is read after
        // it), and then carries no return value.
        result = await readBackfillSummary(rt, runId);
        return result;
      }
      await sleep(300);
    }
  } finally {
    if (result)
      progress?.update({
        done: result.windows,
        total: Math.max(total, result.windows),
        records: result.pulled,
        detail: '· every upsert written',
      });
    progress?.end(result !== undefined);
  }
}

/**
 * Only this run's upserts not yet written: other connections' traffic on the same queue does not hold
 * it up. Counted every 5 s while windows run, every second once they are all done.
 */
function backlogCounter(rt: BackfillRuntime, runId: string) {
  const failedUpsert = failedUpsertHelpers(rt);
  let backlog: number | undefined;
  let billingDown = '';
  let countedAt = 0;
  return {
    /** Counts when due; true when it counted. */
    async countIfDue(windowsDone: boolean): Promise<boolean> {
      if (Date.now() - countedAt < (windowsDone ? 1_000 : 5_000)) return false;
      backlog = await runBacklog(rt, runId, failedUpsert);
      // A billing outage pauses the upserts: say so, rather than a count that stops moving.
      const outage = await rt.outages.get(BILLING);
      billingDown = outage
        ? ` · billing DOWN since ${new Date(outage.since).toISOString()}, upserts paused until it answers`
        : '';
      countedAt = Date.now();
      return true;
    },
    remaining: () => backlog,
    detail: () => `· upserts of this run not yet written ${backlog ?? '…'}${billingDown}`,
  };
}

const pulledOf = (v: unknown): number =>
  typeof (v as { pulled?: unknown } | null)?.pulled === 'number' ? (v as { pulled: number }).pulled : 0;

/**
 * The bar's running count: records read by the run's finished windows (their pull results) and by the
 * windows running now (the progress a pull reports after each page; as many as the pull concurrency).
 * A window finishing between the two reads may be missed or counted twice for one redraw.
 */
async function recordsRead(rt: BackfillRuntime, runId: string, finished: Record<string, unknown>): Promise<number> {
  let n = 0;
  for (const v of Object.values(finished)) n += pulledOf(v);
  for (const job of await rt.queues.pull.getActive())
    if ((job.data as { runId?: string }).runId === runId) n += pulledOf(job.progress);
  return n;
}

function printSummary(s: BackfillReport): void {
  console.log(
    `backfill ${s.runId} (${s.connection}, ${s.from} → ${s.to})${s.alreadyDone ? ' was already complete' : ''}`,
  );
  console.log(
    `  windows ${s.windows}, pulled ${s.pulled}, enqueued ${s.enqueued}, unchanged ${s.unchanged}, quarantined in this run ${s.quarantined}` +
      (s.notForBilling ? `, skipped ${s.notForBilling} not for billing (suppliers)` : ''),
  );
  console.log(
    `  quarantine now holds ${s.quarantinedTotal} record(s) for this connection${s.quarantinedTotal ? ' — see: erp-sync dlq list --connection ' + s.connection : ''}`,
  );
  if (s.failedWindows?.length) {
    console.log(
      `  ${s.failedWindows.length} window(s) FAILED and were not synced (fix the cause, then run the same backfill again to resume them):`,
    );
    for (const f of s.failedWindows) console.log(`    ${f.window}: ${f.reason}`);
  }
  console.log(`  ${s.seconds.toFixed(1)} s`);
}
