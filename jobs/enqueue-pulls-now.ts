import { randomBytes } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { EntityName } from '../src/connector/entities.js';
import { jobIdSafe } from '../src/mapping/index.js';
import { type jobOptions, PRIORITY, type PullPayload } from './catalog.js';

/** One pull enqueued by enqueuePullsNow: its stream and job id. */
export interface PullNow {
  entity: EntityName;
  jobId: string;
}

/**
 * An incremental pull of each entity now, at the incremental priority, with the scheduler's retry
 * policy (jobs/worker-service.ts). Each job id is new (`<why>-<connection>-<entity>-<time>-<random>`),
 * so it is never deduplicated against an earlier one, and each pull waits for a pull of its stream
 * that is running instead of returning at once: it reads what changed up to the moment it runs.
 */
export async function enqueuePullsNow(
  rt: { queues: { pull: Pick<Queue, 'addBulk'> }; options: Pick<ReturnType<typeof jobOptions>, 'pull'> },
  connectionId: string,
  entities: readonly EntityName[],
  why: 'now' | 'resume',
): Promise<PullNow[]> {
  const stamp = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const pulls = entities.map((entity) => ({ entity, jobId: jobIdSafe(why, connectionId, entity, stamp) }));
  await rt.queues.pull.addBulk(
    pulls.map(({ entity, jobId }) => ({
      name: 'pull',
      data: { connectionId, entity, waitForRunning: true } satisfies PullPayload,
      opts: { ...rt.options.pull, priority: PRIORITY.incremental, jobId },
    })),
  );
  return pulls;
}
