import type { ConnectionHandle } from '../jobs/runtime.js';
import type { ConnectionControl, Pause } from '../src/pipeline/connection-control.js';

export interface PauseReport {
  connection: string;
  /** The pause in force: this one, or the earlier one that still stands (its since, by and reason). */
  pause: Pause;
  /** False when the connection was paused already (nothing changed). */
  changed: boolean;
}

/**
 * Pauses a connection: its pulls, upserts and reconciles are held from their next start (jobs running
 * now finish) until it is resumed (resume-connection.ts). `by` and `reason` are free text, only shown.
 */
export async function pauseConnection(
  rt: { connection(id: string): ConnectionHandle; connectionControl: Pick<ConnectionControl, 'pause'> },
  connectionId: string,
  by: { by?: string; reason?: string } = {},
): Promise<PauseReport> {
  rt.connection(connectionId); // an unknown id fails here, before anything changes
  const { pause, changed } = await rt.connectionControl.pause(connectionId, by);
  return { connection: connectionId, pause, changed };
}
