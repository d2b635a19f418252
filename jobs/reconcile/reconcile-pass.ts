import { randomUUID } from 'node:crypto';
import type { ReconcileVerdict, ScratchIdSet } from '../../src/pipeline/reconcile-state.js';
import type { ConnectionHandle } from '../runtime.js';
import { dateInZone } from './date-in-zone.js';
import { DriftReport } from './drift.js';
import type { ReconcileHelpers, ReconcileRequest } from './types.js';

/** A record a reconcile found fixable, at the version to repair it to. */
export interface ToRepair {
  erpId: string;
  version: string;
}

/** What the passes of one reconcile (source, billing, ledger) share. */
export interface ReconcilePass {
  rt: ReconcileHelpers;
  req: ReconcileRequest;
  conn: string;
  signal?: AbortSignal;
  /** Billing's side is the connection's own billing company: listed with its key, paced by its budget. */
  billing: ConnectionHandle['billing'];
  originSource: ConnectionHandle['config']['originSource'];
  report: DriftReport;
  /** The billing ids this run saw, in Redis (a window may hold hundreds of thousands). */
  seen: ScratchIdSet;
  toRepair: ToRepair[];
  /** When the run started (its verdicts' time). */
  at: string;
  /** Whether an instant's day (in reconcile.timeZone) lies in the window. */
  inWindow(ms: number): boolean;
  verdict(erpId: string, verdict: string, detail?: string): void;
  /** Writes the verdicts recorded since the last flush. */
  flushVerdicts(): Promise<void>;
}

export function startReconcilePass(rt: ReconcileHelpers, req: ReconcileRequest, signal?: AbortSignal): ReconcilePass {
  const { config: c, billing } = rt.connection(req.connectionId);
  const conn = c.id;
  const tz = rt.config.reconcile.timeZone;
  const verdicts: Array<[string, ReconcileVerdict]> = [];
  const at = new Date().toISOString();
  return {
    rt,
    req,
    conn,
    signal,
    billing,
    originSource: c.originSource,
    report: new DriftReport(),
    seen: rt.reconcileState.scratchSet(conn, `${randomUUID()}:seen`),
    toRepair: [],
    at,
    inWindow: (ms) => {
      const day = dateInZone(ms, tz);
      return day >= req.from && day <= req.to;
    },
    verdict: (erpId, verdict, detail) =>
      verdicts.push([erpId, { at, window: `${req.from}..${req.to}`, verdict, detail }]),
    flushVerdicts: () => rt.reconcileState.recordVerdicts(conn, 'invoices', verdicts.splice(0)),
  };
}
