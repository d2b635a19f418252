import type { Runtime } from '../jobs/runtime.js';
import type { EntityName } from '../src/connector/entities.js';
import { ConfigError } from '../src/errors/index.js';

/**
 * Writes a stream's checkpoint while holding the lock of its incremental pull: no pull of the stream
 * runs meanwhile, and none can save over the write (a pull that started before would have held the
 * lock). A stream whose pull is running is refused, to be tried again once it finishes.
 */
export async function withStreamLocked<T>(
  rt: Pick<Runtime, 'locks'>,
  connection: string,
  entity: EntityName,
  fn: () => Promise<T>,
): Promise<T> {
  const release = await rt.locks.tryAcquireIncrementalPull(connection, entity, `erp-sync-state-${process.pid}`, 60_000);
  if (!release)
    throw new ConfigError(`a pull of ${connection} ${entity} is running now; try again when it has finished`);
  try {
    return await fn();
  } finally {
    await release();
  }
}
