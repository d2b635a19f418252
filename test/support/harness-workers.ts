import { QueueEvents } from 'bullmq';
import { type Role, startWorkers, type WorkerService } from '../../app/worker-service.js';
import { queuePrefix, type QueueName } from '../../jobs/catalog.js';
import type { Runtime } from '../../jobs/runtime.js';
import { isClusterUrl, workerConnection } from '../../src/redis.js';
import { type ChildWorker, spawnChildWorker } from './child-worker.js';
import type { Cleanups } from './cleanups.js';

/**
 * Workers of a test, each stopped by `cleanups`: in-process ones (their list is what the queue waits
 * settle on: a failed job's follow-up writes), the real CLI worker in a child process, and BullMQ event
 * listeners.
 */
export function harnessWorkers(cleanups: Cleanups, o: { prefix: string; redisUrl: string }) {
  const inProcess: WorkerService[] = [];
  return {
    inProcess,
    /** In-process workers of `roles` on `runtime`. */
    start(runtime: Runtime, roles: readonly Role[]): WorkerService {
      const w = startWorkers(runtime, roles);
      inProcess.push(w);
      cleanups.add(() => w.stop(2_000));
      return w;
    },
    /** `erp-sync worker` on `configFile` in a child process (killed at cleanup); resolves once it logged "worker started". */
    async spawn(configFile: string, roles: readonly Role[], env: Record<string, string>): Promise<ChildWorker> {
      const child = await spawnChildWorker(configFile, roles, env);
      cleanups.add(async () => {
        child.kill('SIGKILL');
        await child.exited;
      });
      return child;
    },
    /** A QueueEvents listener on `queue`, ready before it returns. */
    async queueEvents(queue: string): Promise<QueueEvents> {
      const connection = workerConnection(o.redisUrl);
      const qe = new QueueEvents(queue, {
        connection,
        prefix: queuePrefix(o.prefix, queue as QueueName, { cluster: isClusterUrl(o.redisUrl) }),
      });
      cleanups.add(async () => {
        await qe.close();
        connection.disconnect();
      });
      await qe.waitUntilReady();
      return qe;
    },
  };
}
export type HarnessWorkers = ReturnType<typeof harnessWorkers>;
