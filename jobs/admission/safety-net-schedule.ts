import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import type { AppConfig } from '../../src/config.js';
import type { SyncStatus } from '../../src/pipeline/sync-status.js';
import type { WebhookHealth } from '../../src/pipeline/webhook-health.js';

type Processor = (job: Job, token?: string, signal?: AbortSignal) => Promise<unknown>;

/** What a scheduled pull skipped while webhooks carry the connection's changes returns. */
export interface SafetyNetSkip {
  skipped: 'webhooks healthy';
}

/**
 * The incremental schedule of a connection whose webhooks are healthy (src/pipeline/webhook-health.ts)
 * stretches to `schedule.withWebhooksEverySeconds`: a pull its job scheduler adds every
 * `schedule.everySeconds` completes at once, without a vendor call or a run record, until the stream's
 * last successful pull is about that old. Only scheduled pulls (`repeatJobKey`): `sync --now`, repairs,
 * backfill windows and targeted reads always run. Degraded webhooks put the short schedule back by themselves.
 */
export function skipWhileWebhooksCover(
  rt: {
    config: Pick<AppConfig, 'connections'>;
    logger: Logger;
    webhookHealth: Pick<WebhookHealth, 'read'>;
    syncStatus: Pick<SyncStatus, 'read'>;
  },
  processor: Processor,
): Processor {
  return async (job, token, signal) => {
    const data = job.data as { connectionId?: unknown; entity?: unknown; window?: unknown; webhook?: unknown };
    if (
      job.repeatJobKey &&
      typeof data.connectionId === 'string' &&
      typeof data.entity === 'string' &&
      !data.window &&
      !data.webhook
    ) {
      // Read at each job: a config reload swaps rt.config.
      const c = rt.config.connections.find((x) => x.id === data.connectionId);
      if (c?.webhooks && (await rt.webhookHealth.read(c.id)).healthy) {
        const last = (await rt.syncStatus.read(c.id)).lastSuccess[data.entity];
        // Half a short interval early rather than a whole one late.
        const dueMs = (c.schedule.withWebhooksEverySeconds - c.schedule.everySeconds / 2) * 1000;
        if (last !== undefined && Date.now() - last < dueMs)
          return { skipped: 'webhooks healthy' } satisfies SafetyNetSkip;
      }
    }
    return processor(job, token, signal);
  };
}
