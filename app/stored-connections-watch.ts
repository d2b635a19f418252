import type { Runtime } from '../jobs/runtime.js';
import { purgeExpiredConnections } from '../operations/remove-connection.js';

export interface StoredConnectionsWatch {
  /** Looks now (as a tick would); resolves once a change found is applied. */
  poll(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Every worker picks up a change of the stored connections within `everyMs` (default 1 s): it polls the
 * store's version (one HGET, cluster-safe, unlike pub/sub on a Cluster's shards) and, when it moved,
 * `apply`s the connections again. Every `purgeEveryMs` (default 10 min) it purges removed connections
 * past their retention (idempotent: any worker may). A failed poll (Redis away) is logged and tried at the
 * next tick.
 */
export function watchStoredConnections(
  rt: Pick<Runtime, 'storedConnections' | 'logger' | 'config'>,
  apply: () => Promise<void>,
  options: { everyMs?: number; purgeEveryMs?: number; version?: number } = {},
): StoredConnectionsWatch {
  const everyMs = options.everyMs ?? 1000;
  const purgeEveryMs = options.purgeEveryMs ?? 600_000;
  let seen = options.version;
  let lastPurge = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();

  const tick = async () => {
    const version = await rt.storedConnections.version();
    if (version !== seen) {
      await apply();
      seen = version;
    }
    if (Date.now() - lastPurge >= purgeEveryMs) {
      lastPurge = Date.now();
      const purged = await purgeExpiredConnections(rt);
      if (purged.length) rt.logger.info({ connections: purged }, 'removed connections past their retention purged');
    }
  };
  const poll = (): Promise<void> =>
    (running = running.then(tick).catch((e: unknown) => {
      rt.logger.warn({ error: (e as Error).message }, 'stored connections: could not look for changes');
    }));
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void poll().then(schedule), everyMs);
    timer.unref();
  };
  schedule();
  return {
    poll,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
