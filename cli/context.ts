import type { Logger } from 'pino';
import { validateSettings } from '../connectors/registry.js';
import { openRuntime, type Runtime } from '../jobs/runtime.js';
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
export async function withRuntime<T>(file: string | undefined, fn: (rt: Runtime, logger: Logger) => Promise<T>, logLevel = 'warn'): Promise<T> {
  const config = await loadAppConfig(file);
  const logger = createLogger({ level: process.env.LOG_LEVEL ?? logLevel, stderr: true });
  const rt = await openRuntime(config, logger, { allowEmbedded: false, patient: true });
  try {
    return await fn(rt, logger);
  } finally {
    await rt.close();
  }
}
