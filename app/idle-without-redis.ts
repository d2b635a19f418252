import { type EventEmitter, once } from 'node:events';
import type { Cluster, Redis } from 'ioredis';

/** A client trying to reach a Redis that went away (not one closed on purpose: that one is `end`). */
const reconnecting = (redis: Pick<Redis | Cluster, 'status'>) =>
  redis.status === 'reconnecting' || redis.status === 'connecting';

/**
 * Resolves true once a stopping worker has nothing left to hand back and no Redis to hand it to: no job
 * in flight (`idle`) while the client is reconnecting to a Redis that went away. Closing BullMQ's workers
 * then only waits for a reconnect that may never come: the stop can end at once instead of at its
 * deadline, since no job of this process is active. Resolves false when `signal` aborts first (the stop
 * ended by itself). Waits on events, never polls.
 */
export async function idleWithoutRedis(
  redis: Pick<Redis | Cluster, 'status'> & EventEmitter,
  idle: () => Promise<void>,
  signal: AbortSignal,
): Promise<boolean> {
  for (;;) {
    await idle();
    if (signal.aborted) return false;
    if (reconnecting(redis)) return true;
    try {
      await once(redis, 'reconnecting', { signal });
    } catch {
      return false;
    }
  }
}
