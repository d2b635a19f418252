import { constants } from 'node:os';
import type { Logger } from 'pino';
import { validateSettings } from '../connectors/registry.js';
import { openRuntime } from '../app/create-runtime.js';
import type { Runtime } from '../jobs/runtime.js';
import type { Auditor } from '../operations/audited.js';
import { type AppConfig, loadConfig } from '../src/config.js';
import { createLogger } from '../src/observability/logger.js';

/** The config file: --config, else ERP_SYNC_CONFIG, else ./erp-sync.yaml. */
export function configPath(opt?: string): string {
  return opt ?? process.env.ERP_SYNC_CONFIG ?? 'erp-sync.yaml';
}

export async function loadAppConfig(file?: string): Promise<AppConfig> {
  return loadConfig(configPath(file), process.env, validateSettings);
}

/**
 * Config + Redis + runtime for one-shot commands (status, dlq, explain, backfill, reconcile). Logs go to
 * stderr: stdout is the command's output (`--json` pipes into jq). Redis connections are patient: a
 * Redis that restarts while a command runs is waited for (with a log line), not a reason to give up.
 */
export async function withRuntime<T>(
  file: string | undefined,
  fn: (rt: Runtime, logger: Logger) => Promise<T>,
  logLevel = 'warn',
): Promise<T> {
  const config = await loadAppConfig(file);
  const logger = createLogger({ level: process.env.LOG_LEVEL ?? logLevel, stderr: true });
  const rt = await openRuntime(config, logger, { allowEmbedded: false, patient: true });
  const stopExitingOnSignal = exitOnSignal();
  try {
    return await fn(rt, logger);
  } finally {
    stopExitingOnSignal();
    await rt.close();
  }
}

/**
 * The person at the command line as the audit log names them (operations/audited.ts): `--by` where a
 * command takes it, else $USER. Entries from here have status 0 (no HTTP answer). A usage error (exit 2:
 * a bad option, an unknown connection) is checked before the action and is not one: it is not audited.
 */
export function cliAuditor(rt: Pick<Runtime, 'audit' | 'logger'>, by?: string): Auditor {
  return { audit: rt.audit, logger: rt.logger, who: by ?? process.env.USER ?? 'erp-sync', via: 'cli' };
}

/**
 * SIGINT/SIGTERM end a one-shot command at once, with one line on stderr and 128 + the signal's number
 * (what a shell reports for a process a signal ended). Closing the workers a command runs in-process
 * (backfill, reconcile --repair, sync --wait) could wait as long as Redis stays away; nothing needs it:
 * the jobs they held are taken back by the next worker once their locks expire (stalled-job recovery),
 * and a backfill run again resumes where it stopped. Returns what removes the handlers.
 */
function exitOnSignal(): () => void {
  const on = (signal: 'SIGINT' | 'SIGTERM') => () => {
    console.error(
      `erp-sync: interrupted by ${signal}; a job it was running is taken back by the next worker (a backfill run again resumes)`,
    );
    process.exit(128 + constants.signals[signal]);
  };
  const onInt = on('SIGINT');
  const onTerm = on('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return () => {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  };
}
