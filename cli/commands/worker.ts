import type { Command } from 'commander';
import { startService } from '../../app/service.js';
import { ALL_ROLES, type Role } from '../../app/worker-service.js';
import { ConfigError } from '../../src/errors/index.js';
import { ListenError } from '../../src/http/listen.js';
import { createLogger } from '../../src/observability/logger.js';
import { loadAppConfig } from '../context.js';
import { shutdownDeadlineMs, stopWithin } from '../wait-for-shutdown.js';
import { intOption, MAX_PORT } from '../parse-args.js';

/** `erp-sync worker --config F [--roles pull,upsert]`: the long-running service. */
export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('run the sync service: job schedulers, workers, and /metrics, /healthz, /readyz')
    .option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)')
    .option('--roles <list>', `comma-separated roles to run (${ALL_ROLES.join(',')})`, ALL_ROLES.join(','))
    .option('--http-port <n>', 'override http.port (0 = any free port)', intOption('--http-port', 0, MAX_PORT))
    .action(async (opts: { config?: string; roles: string; httpPort?: number }) => {
      const roles = opts.roles
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean);
      const unknown = roles.filter((r) => !ALL_ROLES.includes(r as Role));
      if (unknown.length)
        throw new ConfigError(`--roles: unknown role(s) ${unknown.join(', ')}; use ${ALL_ROLES.join(', ')}`);
      if (!roles.length)
        throw new ConfigError(`--roles needs at least one of ${ALL_ROLES.join(', ')}, got "${opts.roles}"`);
      const config = await loadAppConfig(opts.config);
      const logger = createLogger();
      // SIGHUP reloads the config (app/reload-config.ts). Listened to from here until the process ends:
      // Node's default for SIGHUP ends the process. One that comes while the service starts is a reload
      // owed once it runs; one that comes while it shuts down is ignored.
      let reload: (() => void) | undefined;
      let reloadOwed = false;
      let stopping = false;
      const onHup = () => {
        if (stopping) return logger.info({ signal: 'SIGHUP' }, 'shutting down: config reload ignored');
        logger.info({ signal: 'SIGHUP' }, 'reloading the config');
        if (reload) reload();
        else reloadOwed = true;
      };
      process.on('SIGHUP', onHup);
      const service = await startService(config, logger, { roles: roles as Role[], httpPort: opts.httpPort }).catch(
        (e: unknown) => {
          process.off('SIGHUP', onHup);
          if (!(e instanceof ListenError)) throw e;
          const where = opts.httpPort === undefined ? 'http.port in the config, or --http-port' : '--http-port';
          throw new ConfigError(
            `${e.message} (the /metrics server; ${e.portProblem ? `choose another port with ${where}` : 'check http.host in the config'})`,
            {
              cause: e,
            },
          );
        },
      );
      console.error(`erp-sync worker: ${service.httpUrl}/metrics, roles ${roles.join(',')}`);
      // reload() reports its own failures (log, metrics); this catch only keeps an unforeseen one from ending the process.
      reload = () =>
        void service
          .reload(() => loadAppConfig(opts.config))
          .catch((err: unknown) => logger.error({ err }, 'config reload failed'));
      if (reloadOwed) reload();
      // The whole stop is bounded (cli/wait-for-shutdown.ts): without Redis, closing the workers may never settle.
      const exitCode = await new Promise<number>((resolve) => {
        const stop = (signal: string) => {
          logger.info({ signal }, 'shutting down');
          stopping = true;
          process.off('SIGINT', onInt);
          process.off('SIGTERM', onTerm);
          void stopWithin(service, shutdownDeadlineMs(service.rt.config.sync.graceSeconds), logger).then(resolve);
        };
        const onInt = () => stop('SIGINT');
        const onTerm = () => stop('SIGTERM');
        process.on('SIGINT', onInt);
        process.on('SIGTERM', onTerm);
      });
      process.off('SIGHUP', onHup);
      logger.flush?.();
      // Abandoned connections and timers (a stop past its deadline, or one that gave up on a Redis that went
      // away with nothing in flight) would keep the process alive, reconnecting: exit now, with the code.
      process.exit(exitCode);
    });
}
