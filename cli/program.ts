import { Command, CommanderError } from 'commander';
import { registerBackfillCommand } from './commands/backfill.js';
import { registerCheckCommand } from './commands/check.js';
import { registerConfigCommand } from './commands/config.js';
import { registerConnectCommand } from './commands/connect.js';
import { registerConnectionsCommand } from './commands/connections.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerDlqCommand } from './commands/dlq.js';
import { registerExplainCommand } from './commands/explain.js';
import { registerHistoryCommand } from './commands/history.js';
import { registerPreviewCommand } from './commands/preview.js';
import { registerReconcileCommand } from './commands/reconcile.js';
import { registerReviewCommand } from './commands/review.js';
import { registerRunsCommand } from './commands/runs.js';
import { registerStateCommand } from './commands/state.js';
import { registerStatusCommand } from './commands/status.js';
import { registerSyncCommand } from './commands/sync.js';
import { registerTokenCommand } from './commands/token.js';
import { registerWorkerCommand } from './commands/worker.js';
import { registerSandboxCommand } from './commands/sandbox.js';
import { SyncError } from '../src/errors/index.js';
import { listDefaultCommandOptions } from './default-command-help.js';
import { checkRequiredOptions } from './required-option.js';
import { configureUsageErrors } from './usage-errors.js';
import { versionLine } from './version.js';

/**
 * erp-sync: the command line. Exit codes: 0 success; 1 the command ran and found a problem (drift,
 * a demo mismatch); 2 it could not run (bad arguments or config, no Redis, a service unreachable);
 * 3 the worker's stop passed its deadline (cli/wait-for-shutdown.ts); 130/143 a one-shot command
 * ended by SIGINT/SIGTERM.
 * A usage error is one line naming the command's help (usage-errors.ts), never the whole help.
 */
const program = new Command('erp-sync')
  .description('Keep a billing and receivables service in step with Zoho Books, QuickBooks Online and Xero')
  // The version line reads package.json and asks git for the commit: only when asked, not at every start.
  .option('-V, --version', 'print the version (package, commit, Node) and exit')
  .on('option:version', () => {
    process.stdout.write(`${versionLine()}\n`);
    throw new CommanderError(0, 'commander.version', 'version printed');
  })
  .hook('preAction', checkRequiredOptions)
  .exitOverride();

registerDemoCommand(program);
registerSandboxCommand(program);
registerWorkerCommand(program);
registerBackfillCommand(program);
registerReconcileCommand(program);
registerPreviewCommand(program);
registerStatusCommand(program);
registerRunsCommand(program);
registerStateCommand(program);
registerConnectionsCommand(program);
registerCheckCommand(program);
registerSyncCommand(program);
registerDlqCommand(program);
registerReviewCommand(program);
registerExplainCommand(program);
registerHistoryCommand(program);
registerConfigCommand(program);
registerTokenCommand(program);
registerConnectCommand(program);
configureUsageErrors(program);
listDefaultCommandOptions(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    process.exit(err.exitCode === 0 ? 0 : 2);
  }
  if (err instanceof SyncError) {
    console.error(`erp-sync: ${err.message}`);
    process.exit(2);
  }
  console.error(err);
  process.exit(2);
}
