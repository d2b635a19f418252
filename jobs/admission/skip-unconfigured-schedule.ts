import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import type { AppConfig } from '../../src/config.js';

type Processor = (job: Job, token?: string, signal?: AbortSignal) => Promise<unknown>;

/** What a skipped job returns (its return value in the completed set). */
export interface SkippedJob {
  skipped: 'connection not configured' | 'entity not configured';
}

/**
 * Wraps the pull and reconcile processors: a job that a job scheduler added (`job.repeatJobKey`) for a
 * connection this process's config no longer has — or, for a pull, an entity the connection no longer
 * syncs — completes as skipped, with a warning, instead of failing. Such jobs are what a config reload
 * leaves behind: the one a removed scheduler had already queued, or one a replica still running the old
 * config scheduled. The operator removed the connection on purpose; failing its leftovers would only
 * raise failure alerts and write a "last error" for a connection nobody syncs any more.
 *
 * Jobs someone asked for are not skipped: a backfill window or a repair's pull of an unknown connection
 * still fails, naming the configured connections, so the run that wanted it reports why.
 *
 * Upsert jobs are never skipped: a queued upsert of a removed connection still goes to billing. It was
 * read and mapped while the connection was configured, its payload holds everything the write needs
 * (the billing body, content hash, source version), and its record is tracked in flight: dropping it
 * would leave billing behind the ledger's view of the source and the record in flight for ever.
 */
export function skipUnconfiguredSchedule(
  rt: { config: Pick<AppConfig, 'connections'>; logger: Logger },
  queue: string,
  processor: Processor,
): Processor {
  return async (job, token, signal) => {
    const data = job.data as { connectionId?: unknown; entity?: unknown } | undefined;
    if (job.repeatJobKey && typeof data?.connectionId === 'string') {
      // Read at each job: a config reload swaps rt.config.
      const c = rt.config.connections.find((x) => x.id === data.connectionId);
      const entity = typeof data.entity === 'string' ? data.entity : undefined;
      const skipped: SkippedJob['skipped'] | undefined = !c
        ? 'connection not configured'
        : entity !== undefined && !(c.entities as readonly string[]).includes(entity)
          ? 'entity not configured'
          : undefined;
      if (skipped) {
        const why =
          skipped === 'connection not configured'
            ? 'its connection is no longer in the config'
            : "its entity is no longer among the connection's entities";
        rt.logger.warn(
          { queue, jobId: job.id, connection: data.connectionId, entity, scheduler: job.repeatJobKey },
          `scheduled ${queue} job skipped: ${why}`,
        );
        return { skipped } satisfies SkippedJob;
      }
    }
    return processor(job, token, signal);
  };
}
