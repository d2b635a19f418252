import type { Logger } from 'pino';
import type { Runtime } from '../jobs/runtime.js';
import { checkConnection } from '../operations/check-connection.js';

/**
 * The connections' checks (`erp-sync check`) at a worker's start: one log line per check of each
 * connection, failures at warn with their fix. Never rejects.
 *
 * A check the shutdown cut short (`signal` aborted while it ran) did not fail: it is said to have been
 * stopped by the shutdown, at info and without a fix. Its "aborted" with fixes about settings and the
 * network would send an operator looking for a fault that is not there.
 */
export async function logConnectionChecks(rt: Runtime, logger: Logger, signal: AbortSignal): Promise<void> {
  for (const c of rt.config.connections) {
    if (signal.aborted) return;
    try {
      const result = await checkConnection(rt, c.id, { signal });
      for (const r of result.checks) {
        const fields = { connection: c.id, check: r.check, status: r.status, detail: r.detail };
        if (r.status === 'failed' && signal.aborted)
          logger.info(
            { ...fields, status: 'stopped', detail: 'cut short by the shutdown before it finished' },
            `connection check stopped by the shutdown: ${r.check}`,
          );
        else if (r.status === 'failed')
          logger.warn({ ...fields, ...(r.fix ? { fix: r.fix } : {}) }, `connection check failed: ${r.check}`);
        else logger.info(fields, `connection check ${r.status}: ${r.check}`);
      }
    } catch (err) {
      if (!signal.aborted) logger.warn({ connection: c.id, err }, 'connection check could not run');
    }
  }
}
