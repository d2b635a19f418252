import type { ConnectionHandle } from '../jobs/runtime.js';
import type { Quarantine, QuarantineEntry } from '../src/pipeline/quarantine.js';

/** Which quarantined records of a connection an operation is about: all, an entity's, or one record. */
export interface QuarantineSelection {
  connection: string;
  entity?: string;
  erpId?: string;
}

export interface SelectedQuarantine {
  /** How many records the connection has in quarantine, selected or not. */
  inQuarantine: number;
  entries: QuarantineEntry[];
}

/** The connection's quarantined records the selection names (an unknown connection throws). */
export async function selectQuarantined(
  rt: { connection(id: string): ConnectionHandle; quarantine: Pick<Quarantine, 'list'> },
  s: QuarantineSelection,
): Promise<SelectedQuarantine> {
  rt.connection(s.connection);
  const all = await rt.quarantine.list(s.connection);
  return {
    inQuarantine: all.length,
    entries: all.filter((e) => (!s.entity || e.entity === s.entity) && (!s.erpId || e.erpId === s.erpId)),
  };
}
