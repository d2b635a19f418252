import type { Runtime } from '../jobs/runtime.js';
import type { EntityName } from '../src/connector/entities.js';
import type { StreamState } from '../src/connector/types.js';

/** One stream's incremental checkpoint: where its next pull starts. */
export interface StreamCheckpoint {
  connection: string;
  entity: EntityName;
  /** null: no checkpoint, or one at the beginning; the next pull reads from the stream's initial state. */
  cursor: string | null;
  state: StreamState | null;
  savedAt: string | null;
  /** How often the stream was rewound (a repair, a replay, `state set` backwards). */
  rewinds: number;
}

/** A stream's checkpoint as stored, with how often it was rewound. */
export async function readCheckpoint(
  rt: Pick<Runtime, 'checkpoints'>,
  connection: string,
  entity: EntityName,
): Promise<StreamCheckpoint> {
  const { checkpoint, rewinds } = await rt.checkpoints.read<StreamState>(connection, entity);
  return {
    connection,
    entity,
    cursor: checkpoint?.state.cursor ?? null,
    state: checkpoint?.state ?? null,
    savedAt: checkpoint ? new Date(checkpoint.savedAt).toISOString() : null,
    rewinds,
  };
}
