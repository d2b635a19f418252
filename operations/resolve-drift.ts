import type { Runtime } from '../jobs/runtime.js';
import { ConfigError } from '../src/errors/index.js';
import type { Ledger } from '../src/pipeline/ledger.js';
import type { DriftResolution, ReconcileState, ReconcileVerdict } from '../src/pipeline/reconcile-state.js';
import { kindsOf, needsPerson } from './list-drift.js';

export type ResolveDriftResult =
  | {
      state: 'resolved';
      connection: string;
      entity: string;
      erpId: string;
      kinds: string[];
      resolution: DriftResolution;
    }
  /** The record's last verdict is not drift (or there is none). */
  | { state: 'not-drifted' }
  /** Its drift is of kinds a sync fixes (reconcile with repair): nothing for a person to resolve. */
  | { state: 'fixable'; kinds: string[] };

type Helpers = Pick<Runtime, 'connection'> & {
  reconcileState: Pick<ReconcileState, 'verdict' | 'resolve'>;
  ledger: Pick<Ledger, 'get'>;
};

/**
 * Marks a drifted record resolved by a person (who, when, a note), for the kinds a sync cannot fix. The
 * resolution is tied to the record's source version in the ledger now: it hides the record from the
 * drift listed (list-drift.ts) until the record changes again.
 */
export async function resolveDrift(
  rt: Helpers,
  connection: string,
  entity: string,
  erpId: string,
  by: { by: string; note: string; now?: number },
): Promise<ResolveDriftResult> {
  rt.connection(connection);
  if (!by.note.trim()) throw new ConfigError('a resolution needs a note saying what was done');
  const verdict: ReconcileVerdict | undefined = await rt.reconcileState.verdict(connection, entity, erpId);
  if (!verdict || verdict.verdict === 'ok') return { state: 'not-drifted' };
  const kinds = kindsOf(verdict.verdict);
  if (!needsPerson(kinds)) return { state: 'fixable', kinds };
  const entry = await rt.ledger.get(connection, entity, erpId);
  const resolution: DriftResolution = {
    by: by.by,
    at: by.now ?? Date.now(),
    note: by.note.trim(),
    version: entry?.version ?? null,
  };
  await rt.reconcileState.resolve(connection, entity, erpId, resolution);
  return { state: 'resolved', connection, entity, erpId, kinds, resolution };
}
