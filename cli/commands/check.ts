import type { Command } from 'commander';
import { type CheckResult, checkConnections, type ConnectionCheck } from '../../operations/check-connection.js';
import { loadAppConfig, withRuntime } from '../context.js';
import { configuredConnection } from './connections.js';

const MARK: Record<CheckResult['status'], string> = { ok: 'ok', failed: 'FAILED', skipped: 'skipped' };

/** One line per check: status, check, what was found; a failure also what to do. */
export function checkLine(r: CheckResult): string {
  return `${MARK[r.status].padEnd(8)}${r.check.padEnd(20)}${r.detail}${r.fix ? ` — fix: ${r.fix}` : ''}`;
}

function print(results: ConnectionCheck[]): void {
  for (const c of results) {
    console.log(`${c.id} (${c.system}): ${c.ok ? 'ok' : 'FAILED'}`);
    for (const r of c.checks) console.log(`  ${checkLine(r)}`);
  }
}

/**
 * `erp-sync check [--connection ID | --all] [--json]`: whether each connection can run — its token
 * refreshes (one refresh per run: vendors limit them), one page of each entity reads, the organisation's base currency is billing's, the vendor
 * quota left, billing accepts its keys. Exit 0 all passed, 1 a check failed, 2 it could not run.
 */
export function registerCheckCommand(program: Command): void {
  program
    .command('check')
    .description(
      'check each connection can run: token refresh, one page of each entity, base currency, vendor quota, billing keys; each failure names its cause and fix',
    )
    .option('--connection <id>', 'only this connection')
    .option('--all', 'every configured connection (the default)')
    .option('--json', 'print JSON')
    .option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)')
    .action(async (opts: { connection?: string; all?: boolean; json?: boolean; config?: string }, cmd: Command) => {
      if (opts.connection && opts.all)
        cmd.error("options '--connection' and '--all' cannot be used together", {
          exitCode: 2,
          code: 'commander.conflictingOption',
        });
      const config = await loadAppConfig(opts.config);
      const ids = opts.connection
        ? [configuredConnection(config, opts.connection)]
        : config.connections.map((c) => c.id);
      await withRuntime(opts.config, async (rt) => {
        const r = await checkConnections(rt, ids, { forceRefresh: true, firstSync: true });
        if (opts.json) console.log(JSON.stringify(r, null, 2));
        else print(r.connections);
        process.exitCode = r.ok ? 0 : 1;
      });
    });
}
