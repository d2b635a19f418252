import { DRIFT_KINDS, FIXABLE, type DriftKind } from '../jobs/reconcile/drift.js';
import type { Runtime } from '../jobs/runtime.js';
import type { Ledger } from '../src/pipeline/ledger.js';
import type { DriftResolution, ReconcileRun, ReconcileState } from '../src/pipeline/reconcile-state.js';

/** One drifted record of the latest reconciliations: its kinds, what was found, and whether a person must act. */
export interface DriftedItem {
  entity: string;
  erpId: string;
  kinds: string[];
  detail?: string;
  /** When the reconciliation that found it ran, and its window. */
  at: string;
  window: string;
  needsPerson: boolean;
  /** Set when a person resolved it and the record has not changed since (then it is not reported). */
  resolved?: DriftResolution;
}

export interface DriftListing {
  connection: string;
  lastRun: ReconcileRun | null;
  /** Drifted records not resolved, oldest verdict first, at most `limit`. */
  items: DriftedItem[];
  /** Drifted records beyond `limit`. */
  truncated: number;
  /** Drifted records a person resolved, hidden from `items` until the record changes again. */
  resolved: DriftedItem[];
  /** Verdicts read, and whether that was all of them (the walk stops at a bound). */
  scanned: number;
  complete: boolean;
}

type Helpers = Pick<Runtime, 'connection'> & {
  reconcileState: Pick<ReconcileState, 'drifted' | 'lastRun' | 'resolutions'>;
  ledger: Pick<Ledger, 'getMany'>;
};

/** The verdict's kinds: "missing_in_billing,duplicate" → both. */
export const kindsOf = (verdict: string): string[] => verdict.split(',').filter(Boolean);

/** Whether a kind is one a sync cannot fix (a person must look: an orphan, a duplicate, a void billing did not take). */
export const needsPerson = (kinds: readonly string[]): boolean =>
  kinds.some((k) => !(DRIFT_KINDS as readonly string[]).includes(k) || !FIXABLE.has(k as DriftKind));

/**
 * A resolution holds while the record is as it was when it was resolved: the ledger's source version
 * unchanged. A newer source version (the record changed in the ERP and was synced) ends it, and the
 * record's drift is reported again if the next reconciliation still finds it.
 */
export const stillHolds = (r: DriftResolution, version: string | null): boolean => r.version === version;

/**
 * The latest reconciliation's drift of a connection, as `erp-sync reconcile --report` lists it, from the
 * verdicts the reconciliations keep per record (the last run's word counts), with the resolutions applied.
 */
export async function listDrift(rt: Helpers, connection: string, limit = 1000): Promise<DriftListing> {
  rt.connection(connection);
  const [{ records, scanned, complete }, lastRun, resolutions] = await Promise.all([
    rt.reconcileState.drifted(connection),
    rt.reconcileState.lastRun(connection),
    rt.reconcileState.resolutions(connection),
  ]);
  records.sort((a, b) => a.verdict.at.localeCompare(b.verdict.at) || a.erpId.localeCompare(b.erpId));
  const resolvedOf = records.filter((r) => resolutions.has(`${r.entity}|${r.erpId}`));
  const versions = new Map<string, string | null>();
  for (const entity of new Set(resolvedOf.map((r) => r.entity))) {
    const ids = resolvedOf.filter((r) => r.entity === entity).map((r) => r.erpId);
    const entries = await rt.ledger.getMany(connection, entity, ids);
    ids.forEach((id, i) => versions.set(`${entity}|${id}`, entries[i]?.version ?? null));
  }
  const items: DriftedItem[] = [];
  const resolved: DriftedItem[] = [];
  for (const r of records) {
    const kinds = kindsOf(r.verdict.verdict);
    const item: DriftedItem = {
      entity: r.entity,
      erpId: r.erpId,
      kinds,
      ...(r.verdict.detail ? { detail: r.verdict.detail } : {}),
      at: r.verdict.at,
      window: r.verdict.window,
      needsPerson: needsPerson(kinds),
    };
    const key = `${r.entity}|${r.erpId}`;
    const resolution = resolutions.get(key);
    if (resolution && stillHolds(resolution, versions.get(key) ?? null))
      resolved.push({ ...item, resolved: resolution });
    else items.push(item);
  }
  return {
    connection,
    lastRun: lastRun ?? null,
    items: items.slice(0, limit),
    truncated: Math.max(0, items.length - limit),
    resolved,
    scanned,
    complete,
  };
}
