import type { Quarantine, QuarantineEntry } from '../src/pipeline/quarantine.js';

/** Removes quarantined records for good: they are not synced. Returns how many were removed. */
export async function purgeQuarantined(
  rt: { quarantine: Pick<Quarantine, 'remove'> },
  entries: readonly QuarantineEntry[],
): Promise<{ purged: number }> {
  for (const e of entries) await rt.quarantine.remove(e.connection, e.entity, e.erpId);
  return { purged: entries.length };
}
