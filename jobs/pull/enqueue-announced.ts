import type { Queue } from 'bullmq';
import type { AppConfig } from '../../src/config.js';
import type { EntityName } from '../../src/connector/entities.js';
import type { WebhookEvents } from '../../src/pipeline/webhook-events.js';
import type { WebhookEvent } from '../../src/webhooks/webhook-event.js';
import { CREDIT_NOTE_PRIORITY_OFFSET, type jobOptions, PRIORITY, type PullPayload } from '../catalog.js';

/** The job id of a stream's targeted read of one batch: every delivery of the batch adds the same job once. */
export const announcedReadJobId = (connection: string, entity: string, batch: number): string =>
  `webhook-${connection}-${entity}-${batch}`;

export interface EnqueueAnnouncedHelpers {
  config: Pick<AppConfig, 'connections' | 'webhooks'>;
  webhookEvents: Pick<WebhookEvents, 'record'>;
  queues: { pull: Pick<Queue, 'add'> };
  options: Pick<ReturnType<typeof jobOptions>, 'pull'>;
}

/**
 * One connection's share of a verified delivery, made durable: its events recorded per stream, then the
 * stream's targeted read enqueued as a pull job (jobs/pull/read-announced.ts), delayed by
 * `webhooks.coalesceMs` so the events of that window share one read. Only once both are in Redis may the
 * listener answer 2xx. A replayed delivery adds the same job id again: BullMQ keeps one.
 */
export async function enqueueAnnounced(
  rt: EnqueueAnnouncedHelpers,
  connectionId: string,
  events: readonly WebhookEvent[],
): Promise<{ fresh: number }> {
  const c = rt.config.connections.find((x) => x.id === connectionId);
  if (!c) return { fresh: 0 };
  // An announcement counts for the safety net until its next pull has surely read past it.
  const retentionMs = (2 * c.schedule.withWebhooksEverySeconds + c.lookbackSeconds) * 1000;
  const byEntity = new Map<EntityName, WebhookEvent[]>();
  for (const e of events) byEntity.set(e.entity, [...(byEntity.get(e.entity) ?? []), e]);
  let fresh = 0;
  for (const [entity, list] of byEntity) {
    const recorded = await rt.webhookEvents.record(connectionId, entity, list, retentionMs);
    fresh += recorded.fresh;
    if (!recorded.pending) continue;
    const data: PullPayload = { connectionId, entity, webhook: { batch: recorded.batch } };
    await rt.queues.pull.add('pull', data, {
      ...rt.options.pull,
      jobId: announcedReadJobId(connectionId, entity, recorded.batch),
      delay: rt.config.webhooks?.coalesceMs ?? 1000,
      priority: PRIORITY.incremental + (entity === 'credit-notes' ? CREDIT_NOTE_PRIORITY_OFFSET : 0),
    });
  }
  return { fresh };
}
