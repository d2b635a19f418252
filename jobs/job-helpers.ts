import type { BackfillHelpers } from './backfill.js';
import type { PullHelpers } from './pull.js';
import type { FailedUpsertHelpers } from './failed-upsert.js';
import type { ReconcileHelpers } from './reconcile/run-reconcile.js';
import type { SweepHelpers } from './sweep.js';
import type { Runtime } from './runtime.js';
import type { UpsertHelpers } from './upsert.js';

export interface JobHelpers {
  pull: PullHelpers;
  upsert: UpsertHelpers;
  backfill: BackfillHelpers;
  reconcile: ReconcileHelpers;
  sweep: SweepHelpers;
  failedUpsert: FailedUpsertHelpers;
}

/**
 * The one place that decides what each job type may touch: every processor gets its own narrow helpers
 * (named operations on the state stores, the clients it calls, its queue), built from the process's
 * runtime, never the runtime itself.
 */
export function makeJobHelpers(rt: Runtime): JobHelpers {
  const { logger, metrics, config } = rt;
  return {
    pull: {
      logger,
      metrics,
      config: { billing: { baseCurrency: config.billing.baseCurrency }, sync: { backlogHighWater: config.sync.backlogHighWater } },
      connection: rt.connection,
      locks: rt.locks,
      checkpoints: rt.checkpoints,
      ledger: rt.ledger,
      quarantine: rt.quarantine,
      syncStatus: rt.syncStatus,
      backfillRuns: rt.backfillRuns,
      inFlight: rt.inFlight,
      queues: { upsert: rt.queues.upsert },
    },
    upsert: {
      logger,
      metrics,
      config: { billing: { attachmentKey: config.billing.attachmentKey }, sync: { dependencyWaitSeconds: config.sync.dependencyWaitSeconds } },
      billing: rt.billing,
      upsertState: rt.upsertState,
      customersEnsured: rt.customersEnsured,
      ledger: rt.ledger,
      quarantine: rt.quarantine,
      inFlight: rt.inFlight,
      queues: { upsert: rt.queues.upsert },
    },
    backfill: { logger, metrics },
    sweep: {
      logger,
      metrics,
      config: { sync: { sweepGraceSeconds: config.sync.sweepGraceSeconds } },
      connectionIds: () => config.connections.map((c) => c.id),
      inFlight: rt.inFlight,
      quarantine: rt.quarantine,
      ledger: rt.ledger,
      syncStatus: rt.syncStatus,
      queues: { upsert: rt.queues.upsert },
    },
    failedUpsert: { logger, metrics, quarantine: rt.quarantine, inFlight: rt.inFlight },
    reconcile: {
      logger,
      metrics,
      config: { reconcile: { timeZone: config.reconcile.timeZone } },
      connection: rt.connection,
      billing: rt.billing,
      billingBudget: rt.billingBudget,
      ledger: rt.ledger,
      checkpoints: rt.checkpoints,
      quarantine: rt.quarantine,
      reconcileState: rt.reconcileState,
      queues: { pull: rt.queues.pull },
    },
  };
}
