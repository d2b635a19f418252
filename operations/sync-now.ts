import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Queue } from 'bullmq';
import { type jobOptions, PRIORITY, type PullPayload } from '../jobs/catalog.js';
import type { PullResult } from '../jobs/pull/types.js';
import type { ConnectionConfig } from '../src/config.js';
import { ENTITY_NAMES, type EntityName, isEntityName } from '../src/connector/entities.js';
import { ConfigError } from '../src/errors/index.js';
import { jobIdSafe } from '../src/mapping/index.js';
import type { ConnectionControl, Pause } from '../src/pipeline/connection-control.js';

/** One pull enqueued by enqueuePullsNow: its stream and job id. */
export interface PullNow {
  entity: EntityName;
  jobId: string;
}

/**
 * An incremental pull of each entity now, at the incremental priority, with the scheduler's retry
 * policy (app/worker-service.ts). Each job id is new (`<why>-<connection>-<entity>-<time>-<random>`),
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

/** How a pull enqueued by a sync now ended (when waited for), or that it is enqueued. */
export interface SyncNowPull extends PullNow {
  state: 'enqueued' | 'completed' | 'failed';
  result?: PullResult;
  error?: string;
}

export type SyncNowResult =
  /** The connection is paused: nothing was enqueued (resume it first). */
  | { connection: string; state: 'paused'; pause: Pause }
  /**
   * The pulls enqueued (and, when waited for, how each ended); `workers`: whether pull workers were
   * running on this Redis, or were started in this process for the wait.
   */
  | { connection: string; state: 'enqueued'; pulls: SyncNowPull[]; workers: 'running' | 'none' | 'in-process' };

export interface SyncNowWait {
  /** Starts pull workers in this process, for when none runs on this Redis (stopped after the wait). */
  startPullWorkers(): { stop(graceMs: number): Promise<void> };
  /** Called once those workers started, before the wait. */
  onInProcessWorkers?(): void;
}

/**
 * The entities a sync now pulls: every entity of the connection, or the one named, which must be an
 * entity it syncs (a ConfigError naming the allowed ones otherwise).
 */
export function syncNowEntities(connection: Pick<ConnectionConfig, 'id' | 'entities'>, entity?: string): EntityName[] {
  if (entity === undefined) return [...connection.entities];
  if (!isEntityName(entity))
    throw new ConfigError(`--entity must be one of ${ENTITY_NAMES.join(', ')}, got "${entity}"`);
  if (!connection.entities.includes(entity))
    throw new ConfigError(
      `--entity ${entity} is not synced for connection "${connection.id}" (its entities: ${connection.entities.join(', ')})`,
    );
  return [entity];
}

/**
 * A person's "sync now": an incremental pull of each entity, unless the connection is paused. With
 * `wait`, until each pull completed or failed (not the upserts they enqueue); with no pull worker on
 * this Redis, the pulls then run in this process.
 */
export async function syncNow(
  rt: {
    connectionControl: Pick<ConnectionControl, 'state'>;
    queues: { pull: Pick<Queue, 'addBulk' | 'getJobState' | 'getJob' | 'getWorkersCount'> };
    options: Pick<ReturnType<typeof jobOptions>, 'pull'>;
  },
  connectionId: string,
  entities: readonly EntityName[],
  wait?: SyncNowWait,
): Promise<SyncNowResult> {
  const control = await rt.connectionControl.state(connectionId);
  if (control.state === 'paused') {
    const { state: _state, ...pause } = control;
    return { connection: connectionId, state: 'paused', pause };
  }
  const enqueued = await enqueuePullsNow(rt, connectionId, entities, 'now');
  const running = (await rt.queues.pull.getWorkersCount()) > 0;
  if (!wait)
    return {
      connection: connectionId,
      state: 'enqueued',
      pulls: enqueued.map((p) => ({ ...p, state: 'enqueued' })),
      workers: running ? 'running' : 'none',
    };
  const own = running ? undefined : wait.startPullWorkers();
  if (own) wait.onInProcessWorkers?.();
  try {
    return {
      connection: connectionId,
      state: 'enqueued',
      pulls: await waitForPulls(rt, enqueued),
      workers: own ? 'in-process' : 'running',
    };
  } finally {
    await own?.stop(5_000);
  }
}

/** Polls the pulls' states until each has completed or failed (a pull that is gone counts as completed). */
async function waitForPulls(
  rt: { queues: { pull: Pick<Queue, 'getJobState' | 'getJob'> } },
  pulls: PullNow[],
): Promise<SyncNowPull[]> {
  for (;;) {
    const states = await Promise.all(pulls.map((p) => rt.queues.pull.getJobState(p.jobId)));
    if (states.every((s) => s === 'completed' || s === 'failed' || s === 'unknown')) {
      return Promise.all(
        pulls.map(async (p, i): Promise<SyncNowPull> => {
          const job = await rt.queues.pull.getJob(p.jobId);
          if (states[i] === 'failed') return { ...p, state: 'failed', error: job?.failedReason ?? 'failed' };
          return { ...p, state: 'completed', ...(job?.returnvalue ? { result: job.returnvalue as PullResult } : {}) };
        }),
      );
    }
    await sleep(250);
  }
}
