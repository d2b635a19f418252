import type { Runtime } from '../jobs/runtime.js';
import type { EntityName } from '../src/connector/entities.js';
import { withStreamLocked } from './with-stream-locked.js';

/**
 * Clears the checkpoint: the stream's initial state (cursor null), so the next pull reads the stream
 * from its beginning, as if it had never run. The store keeps no "absent" form a pull treats
 * differently: a null cursor is what a pull starts from without a checkpoint.
 */
export async function clearCheckpoint(
  rt: Pick<Runtime, 'connection' | 'checkpoints' | 'locks'>,
  connection: string,
  entity: EntityName,
): Promise<void> {
  const stream = rt.connection(connection).connector.streams[entity];
  await withStreamLocked(rt, connection, entity, () =>
    rt.checkpoints.save(connection, entity, stream.initialState(undefined)),
  );
}
