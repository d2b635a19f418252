import type { Runtime } from '../jobs/runtime.js';
import type { EntityName } from '../src/connector/entities.js';
import type { StreamState } from '../src/connector/types.js';
import { withStreamLocked } from './with-stream-locked.js';

export type SetOutcome = 'rewound' | 'moved-forward' | 'unchanged';

/**
 * Sets the cursor. Backwards: the Checkpoints store's rewind (keeps the rest of the stream's state and
 * makes a running pull's later save be refused, so the rewind stands). Forwards, or where there is no
 * checkpoint: the stream's own initial state at that cursor, saved while no pull of it runs (the
 * store has no forward operation: only pulls move a cursor forward, after their page's jobs are
 * durable). Records modified before a forward cursor are not read again by incremental pulls.
 */
export async function setCursor(
  rt: Pick<Runtime, 'connection' | 'checkpoints' | 'locks'>,
  connection: string,
  entity: EntityName,
  cursor: string,
): Promise<SetOutcome> {
  const stream = rt.connection(connection).connector.streams[entity];
  const current = (await rt.checkpoints.get<StreamState>(connection, entity))?.state.cursor;
  if (current === cursor) return 'unchanged';
  if (
    typeof current === 'string' &&
    cursor < current &&
    (await rt.checkpoints.rewindCheckpoint(connection, entity, cursor))
  )
    return 'rewound';
  return withStreamLocked(rt, connection, entity, async (): Promise<SetOutcome> => {
    await rt.checkpoints.save(connection, entity, stream.initialState(cursor));
    return 'moved-forward';
  });
}
