import type { Logger } from 'pino';
import { createRuntime } from '../../app/create-runtime.js';
import { type Service, startService } from '../../app/service.js';
import { ALL_ROLES, type Role } from '../../app/worker-service.js';
import type { Runtime } from '../../jobs/runtime.js';
import type { AppConfig } from '../../src/config.js';
import { createLogger } from '../../src/observability/logger.js';
import type { Cleanups } from './cleanups.js';

/** Runtimes are quiet: TEST_LOG_LEVEL=debug to watch them. */
export const quietLogger = (): Logger =>
  createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent', format: 'json' });

/** A runtime on `config` (another "process" as far as Redis is concerned); closed by `cleanups`. */
export async function startRuntime(cleanups: Cleanups, config: AppConfig, redisUrl: string): Promise<Runtime> {
  const rt = await createRuntime(config, redisUrl, quietLogger());
  cleanups.add(() => rt.close());
  return rt;
}

export interface ServiceOptions {
  /** @defaultValue every role */
  roles?: readonly Role[];
  /** @defaultValue 'info' */
  logLevel?: string;
}

/**
 * The real service on `config` (schedulers, workers, HTTP server on a free port), its log lines (JSON,
 * one per entry) captured in `lines`; stopped by `cleanups`.
 */
export async function startTestService(
  cleanups: Cleanups,
  config: AppConfig,
  o: ServiceOptions = {},
): Promise<{ service: Service; lines: string[] }> {
  const lines: string[] = [];
  const logger = createLogger({
    level: o.logLevel ?? 'info',
    format: 'json',
    destination: { write: (s: string) => void lines.push(s) },
  });
  const service = await startService(config, logger, { roles: o.roles ?? ALL_ROLES, httpPort: 0 });
  cleanups.add(() => service.stop());
  return { service, lines };
}
