import { constants } from 'node:fs';
import { access, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { type Command, Option } from 'commander';
import type { ReconcileResult } from '../../jobs/reconcile/types.js';
import { DRIFT_KINDS, FIXABLE } from '../../jobs/reconcile/drift.js';
import { runBacklog } from '../../jobs/backfill/backfill-processor.js';
import { billingCompanyGuardOf } from '../../jobs/admission/billing-company-guard.js';
import { failedUpsertHelpers } from '../../app/job-helpers.js';
import type { Runtime } from '../../jobs/runtime.js';
import type { HistoryReconcileResult } from '../../jobs/reconcile/reconcile-history.js';
import { reconcileNow } from '../../operations/reconcile-now.js';
import { startWorkers } from '../../app/worker-service.js';
import { ConfigError } from '../../src/errors/index.js';
import { withRuntime } from '../context.js';
import { registerReconcileResolveCommand } from './reconcile-resolve.js';
import { orderedRange } from '../ordered-range.js';
import { isoDate } from '../parse-args.js';
import { requiredOption } from '../required-option.js';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * --report FILE must be writable before a reconcile that may take minutes: its directory exists and is
 * writable, and FILE is not a directory (nor an existing file we may not write).
 */
async function checkReportPath(file: string): Promise<void> {
  const dir = dirname(resolve(file));
  const dirStat = await stat(dir).catch(() => undefined);
  if (!dirStat) throw new ConfigError(`--report ${file}: directory ${dir} does not exist`);
  if (!dirStat.isDirectory()) throw new ConfigError(`--report ${file}: ${dir} is not a directory`);
  const fileStat = await stat(file).catch(() => undefined);
  if (fileStat?.isDirectory()) throw new ConfigError(`--report ${file} is a directory; name a file`);
  try {
    await access(fileStat ? file : dir, constants.W_OK);
  } catch {
    throw new ConfigError(`--report ${file}: ${fileStat ? 'the file' : `directory ${dir}`} is not writable`);
  }
}

interface ReconcileOptions {
  connection: string;
  from?: string;
  to?: string;
  history?: boolean;
  deep?: boolean;
  repair?: boolean;
  json?: boolean;
  report?: string;
  config?: string;
}

/**
 * `erp-sync reconcile --connection ID (--from DATE --to DATE | --history) [--deep] [--repair] [--json] [--report FILE]`
 * Exit codes: 0 clean, 1 drift found, 2 could not reconcile.
 */
export function registerReconcileCommand(program: Command): void {
  const reconcile = program
    .command('reconcile')
    .description(
      'compare billing with what was synced (and, with --deep, with the source) for UPDATED_AT days, or over the whole history',
    )
    .addOption(requiredOption('--connection <id>', 'connection id'))
    .option('--from <date>', 'first day, YYYY-MM-DD (reconcile.timeZone, UTC by default); required unless --history')
    .option('--to <date>', 'last day, inclusive; required unless --history')
    .addOption(
      new Option(
        '--history',
        "the whole history: billing's and the ledger's counts by invoice date, compared id by id where they differ",
      ).conflicts(['from', 'to']),
    )
    .option(
      '--deep',
      'also read the source: never-synced, stale and deleted records (with --history: stale and deleted, in the windows that disagree only)',
    )
    .option(
      '--repair',
      're-read what a sync can fix (missing, mismatch, stale) from the source by id, re-enqueue it and wait for it',
    )
    .option('--json', 'print the result as JSON')
    .option('--report <file>', 'write the full result (every drifted record) as JSON to a file')
    .option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)')
    .action(async (o: ReconcileOptions, cmd: Command) => {
      const window = o.history ? undefined : windowOf(o, cmd);
      if (o.report) await checkReportPath(o.report);
      await withRuntime(o.config, async (rt) => {
        // Billing's side of a connection whose state belongs to another company would be all drift.
        await billingCompanyGuardOf(rt).check(o.connection);
        const result = await reconcileNow(
          rt,
          o.connection,
          { ...(window ?? { history: true }), deep: Boolean(o.deep), repair: Boolean(o.repair) },
          { startReconcileWorkers: () => startWorkers(rt, ['reconcile']) },
        );
        if (o.repair && result.repaired) await waitForOwnRepair(rt, result.repaired);
        await writeResult(result, o);
        process.exitCode = result.total > 0 ? 1 : 0;
      });
    });
  registerReconcileResolveCommand(reconcile);
}

/** --from and --to, both required without --history: a missing or bad one is a usage error. */
function windowOf(o: ReconcileOptions, cmd: Command): { from: string; to: string } {
  for (const flag of ['from', 'to'] as const)
    if (o[flag] === undefined)
      cmd.error(`required option '--${flag} <date>' not specified (or give --history)`, {
        exitCode: 1,
        code: 'commander.missingMandatoryOptionValue',
      });
  return orderedRange(
    { flag: '--from', value: isoDate(o.from!, '--from') },
    { flag: '--to', value: isoDate(o.to!, '--to') },
  );
}

/** A repair's upserts are written by the workers: this process runs its own when no worker serves the queues. */
async function waitForOwnRepair(rt: Runtime, repaired: NonNullable<ReconcileResult['repaired']>): Promise<void> {
  const none = (await rt.queues.pull.getWorkersCount()) === 0 || (await rt.queues.upsert.getWorkersCount()) === 0;
  const own = none ? startWorkers(rt, ['pull', 'upsert']) : undefined;
  try {
    await waitForRepair(rt, repaired);
  } finally {
    await own?.stop(5_000);
  }
}

async function writeResult(result: ReconcileResult | HistoryReconcileResult, o: ReconcileOptions): Promise<void> {
  const json = JSON.stringify(result, null, 2);
  if (o.report) {
    try {
      await writeFile(o.report, json);
    } catch (e) {
      // The reconcile ran: keep its result (on stdout, in full) and say why the report is missing.
      console.log(json);
      throw new ConfigError(
        `could not write --report ${o.report}: ${(e as Error).message}; the result was printed to stdout instead`,
        { cause: e },
      );
    }
  }
  if (o.json) console.log(json);
  else printResult(result);
}

/**
 * A repair is done when its own pulls have finished and every upsert they enqueued (tracked under the
 * repair's run id) is finished: the scheduled pulls and other connections' traffic are not waited for.
 */
async function waitForRepair(
  rt: Runtime,
  repaired: NonNullable<ReconcileResult['repaired']>,
  timeoutMs = 30 * 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const states = await Promise.all(repaired.pullJobIds.map((id) => rt.queues.pull.getJobState(id)));
    const failed = repaired.pullJobIds.filter((_, i) => states[i] === 'failed');
    if (failed.length)
      throw new Error(
        `repair pull ${failed.join(', ')} failed: ${(await rt.queues.pull.getJob(failed[0]!))?.failedReason ?? 'see the worker log'}`,
      );
    if (
      states.every((s) => s === 'completed' || s === 'unknown') &&
      (await runBacklog(rt, repaired.runId, failedUpsertHelpers(rt))) === 0
    )
      return;
    if (Date.now() > deadline)
      throw new Error(
        `the repair did not finish within ${Math.round(timeoutMs / 1000)} s (pulls ${states.join(', ')})`,
      );
    await sleep(250);
  }
}

function printResult(r: ReconcileResult | HistoryReconcileResult): void {
  if ('history' in r) {
    const span = r.from ? `invoice dates ${r.from} → ${r.to}` : 'no dated invoice';
    console.log(
      `reconcile ${r.connection} history, ${span}${r.deep ? ' (deep)' : ''}: ${r.checked.billing} billing, ${r.checked.ledger} ledger${r.deep ? `, ${r.checked.source} source` : ''} records counted in ${r.seconds.toFixed(1)} s (${r.billingCalls} billing listing calls${r.deep ? `, ${r.vendorCalls} vendor calls` : ''})`,
    );
    console.log(
      `  ${r.windows.compared} window(s) counted; ${r.windows.disagreeing.length} disagreeing, compared id by id`,
    );
    for (const w of r.windows.disagreeing) console.log(`    ${w.window}: billing ${w.billing}, ledger ${w.ledger}`);
  } else
    console.log(
      `reconcile ${r.connection} ${r.from} → ${r.to}${r.deep ? ' (deep)' : ''}: checked ${r.checked.billing} billing, ${r.checked.ledger} ledger${r.deep ? `, ${r.checked.source} source` : ''} records in ${r.seconds.toFixed(1)} s`,
    );
  if (r.total === 0) return void console.log('  clean: no drift');
  for (const k of DRIFT_KINDS)
    if (r.counts[k])
      console.log(
        `  ${k.padEnd(22)} ${String(r.counts[k]).padStart(6)}  ${FIXABLE.has(k) ? 'fixable by --repair' : 'needs a person'}`,
      );
  console.log(
    `  ${r.needsPerson} of ${r.total} need a person (the interface cannot express them, or billing refused them)`,
  );
  for (const i of r.items.slice(0, 20))
    console.log(`    ${i.kind}: ${i.erpId ?? '-'} ${i.invoiceNumber ?? ''} ${i.detail}`);
  if (r.items.length > 20 || r.truncated) console.log(`    … ${r.total - 20} more (use --report FILE or --json)`);
  if (r.inFlight) console.log(`  ${r.inFlight} record(s) still on their way to billing (enqueued, not yet written)`);
  if (r.repaired?.records) {
    const rep = r.repaired;
    console.log(
      `  repair by id: ${rep.records!.length} record(s) read again from the source in ${rep.vendorCalls} vendor call(s); ${rep.requeued} re-enqueued and written`,
    );
    for (const o of rep.records!.slice(0, 50))
      console.log(
        `    ${o.action.padEnd(11)} ${o.erpId}${o.version ? ` @${o.version}` : ''}${o.jobId ? ` job ${o.jobId}` : ''}${o.reason ? ` ${o.reason}` : ''}${o.detail ? `: ${o.detail}` : ''}`,
      );
    if (rep.records!.length > 50) console.log(`    … ${rep.records!.length - 50} more (use --report FILE or --json)`);
    console.log('  run reconcile again to confirm');
  } else if (r.repaired)
    console.log(`  repair: ${r.repaired.requeued} record(s) re-enqueued and written; run reconcile again to confirm`);
}
