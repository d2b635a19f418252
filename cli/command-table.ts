import type { Command } from 'commander';

type Register = (program: Command) => void;

/**
 * Every `erp-sync` command, in the order `--help` lists them, each loaded only when needed. A command's
 * module pulls in what its work needs (BullMQ, the connectors, the HTTP server for `worker`); loading all
 * of them costs every run about a third more start-up time than loading the one asked for.
 */
const COMMANDS: ReadonlyArray<readonly [name: string, load: () => Promise<Register>]> = [
  ['demo', async () => (await import('./commands/demo.js')).registerDemoCommand],
  ['sandbox', async () => (await import('./commands/sandbox.js')).registerSandboxCommand],
  ['worker', async () => (await import('./commands/worker.js')).registerWorkerCommand],
  ['backfill', async () => (await import('./commands/backfill.js')).registerBackfillCommand],
  ['reconcile', async () => (await import('./commands/reconcile.js')).registerReconcileCommand],
  ['preview', async () => (await import('./commands/preview.js')).registerPreviewCommand],
  ['status', async () => (await import('./commands/status.js')).registerStatusCommand],
  ['runs', async () => (await import('./commands/runs.js')).registerRunsCommand],
  ['state', async () => (await import('./commands/state.js')).registerStateCommand],
  ['connections', async () => (await import('./commands/connections.js')).registerConnectionsCommand],
  ['check', async () => (await import('./commands/check.js')).registerCheckCommand],
  ['sync', async () => (await import('./commands/sync.js')).registerSyncCommand],
  ['dlq', async () => (await import('./commands/dlq.js')).registerDlqCommand],
  ['review', async () => (await import('./commands/review.js')).registerReviewCommand],
  ['explain', async () => (await import('./commands/explain.js')).registerExplainCommand],
  ['history', async () => (await import('./commands/history.js')).registerHistoryCommand],
  ['config', async () => (await import('./commands/config.js')).registerConfigCommand],
  ['token', async () => (await import('./commands/token.js')).registerTokenCommand],
  ['connect', async () => (await import('./commands/connect.js')).registerConnectCommand],
  ['console', async () => (await import('./commands/console.js')).registerConsoleCommand],
  ['tally-agent', async () => (await import('./commands/tally-agent.js')).registerTallyAgentCommand],
];

/**
 * The commands to register for these arguments: the named command alone when the first argument names
 * one, every command otherwise (no command, `--help`, an option first, an unknown or misspelt name, so
 * commander can list them or suggest the nearest).
 */
export async function commandsFor(args: readonly string[]): Promise<Register[]> {
  const named = COMMANDS.find(([name]) => name === args[0]);
  return Promise.all((named ? [named] : COMMANDS).map(([, load]) => load()));
}
