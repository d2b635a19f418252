import type { Queue } from 'bullmq';
import type { EntityName } from '../src/connector/entities.js';
import type { ConnectionControl, HeldJob, Pause } from '../src/pipeline/connection-control.js';
import type { jobOptions, QueueName } from '../jobs/catalog.js';
import { enqueuePullsNow, type PullNow } from './sync-now.js';
import type { ConnectionHandle } from '../jobs/runtime.js';

export interface ResumeReport {
  connection: string;
  /** The pause that ended (absent: the connection was running; held jobs left over are released all the same). */
  pause?: Pause;
  /** Held jobs moved back to waiting, and those already gone or on their way (nothing to do). */
  released: number;
  settled: number;
  /** The prompt pull of each entity (its scheduled runs were dropped while paused). */
  pulls: PullNow[];
}

/** Held jobs are looked up and released this many at a time. */
const BATCH = 100;

/**
 * Resumes a paused connection: its jobs start again at once.
 * - Every job held while it was paused (jobs/admission/connection-gate.ts) that is still delayed is moved back
 *   to waiting, keeping its priority; the held record is forgotten only afterwards, so a resume cut
 *   short is completed by running it again.
 * - One incremental pull per entity, unless a held incremental pull of that entity was just released:
 *   the scheduler's runs were dropped while paused, and this is the one pull they would have made.
 */
export async function resumeConnection(
  rt: {
    connection(id: string): ConnectionHandle;
    connectionControl: Pick<ConnectionControl, 'resume' | 'released'>;
    queues: Record<QueueName, Pick<Queue, 'getJob'>> & { pull: Pick<Queue, 'getJob' | 'addBulk'> };
    options: Pick<ReturnType<typeof jobOptions>, 'pull'>;
  },
  connectionId: string,
): Promise<ResumeReport> {
  const { config } = rt.connection(connectionId); // an unknown id fails here, before anything changes
  const { pause, held } = await rt.connectionControl.resume(connectionId);
  let released = 0;
  let settled = 0;
  const pulled = new Set<EntityName>();
  for (let i = 0; i < held.length; i += BATCH) {
    const batch = held.slice(i, i + BATCH);
    const outcomes = await Promise.all(batch.map((h) => release(rt.queues, h)));
    for (const o of outcomes) {
      if (o.released) released++;
      else settled++;
      if (o.released && o.incrementalPullOf) pulled.add(o.incrementalPullOf);
    }
    await rt.connectionControl.released(connectionId, batch);
  }
  const pulls = pause
    ? await enqueuePullsNow(
        rt,
        connectionId,
        config.entities.filter((e) => !pulled.has(e)),
        'resume',
      )
    : [];
  return { connection: connectionId, ...(pause ? { pause } : {}), released, settled, pulls };
}

/** Moves one held job back to waiting if it is still delayed; anything else needs nothing. */
async function release(
  queues: Record<string, Pick<Queue, 'getJob'> | undefined>,
  h: HeldJob,
): Promise<{ released: boolean; incrementalPullOf?: EntityName }> {
  const job = await queues[h.queue]?.getJob(h.jobId);
  if (!job || (await job.getState()) !== 'delayed') return { released: false };
  // A concurrent release (the job's own, as it was held during this resume) wins the race harmlessly.
  const moved = await job.promote().then(
    () => true,
    () => false,
  );
  const data = job.data as { entity?: EntityName; window?: unknown };
  return {
    released: moved,
    ...(moved && h.queue === 'pull' && !data.window && data.entity ? { incrementalPullOf: data.entity } : {}),
  };
}
