import { documentLinkerFor } from '../src/documents/document-links.js';
import type { BackfillHelpers } from '../jobs/backfill/types.js';
import { type BillingCompanyGuard, billingCompanyGuardOf } from '../jobs/admission/billing-company-guard.js';
import { billingBreaker, type BillingOutageHelpers } from '../jobs/admission/billing-outage.js';
import { type ConnectionGate, connectionGate } from '../jobs/admission/connection-gate.js';
import type { ConnectionSlotsPolicy } from '../jobs/admission/connection-slots-policy.js';
import type { PullHelpers } from '../jobs/pull/types.js';
import type { FailedUpsertHelpers } from '../jobs/upsert/failed-upsert.js';
import type { ReconcileHelpers } from '../jobs/reconcile/types.js';
import type { HistoryHelpers } from '../jobs/reconcile/invoice-date-window.js';
import { sweepInFlight } from '../jobs/sweep/sweep-processor.js';
import { sampleTrends } from '../jobs/sweep/sample-trends.js';
import type { SweepHelpers } from '../jobs/sweep/types.js';
import type { Runtime } from '../jobs/runtime.js';
import type { UpsertBatchHelpers } from '../jobs/upsert/upsert-batch-processor.js';

export interface JobHelpers {
  pull: PullHelpers;
  upsert: UpsertBatchHelpers;
  backfill: BackfillHelpers;
  reconcile: ReconcileHelpers & { history: HistoryHelpers };
  sweep: SweepHelpers;
  failedUpsert: FailedUpsertHelpers;
  billingOutage: BillingOutageHelpers;
  /** Refuses the jobs of a connection whose state belongs to another billing company (one per process). */
  billingCompany: BillingCompanyGuard;
}

/**
 * The one place that decides what each job type may touch: every processor gets its own narrow helpers
 * (named operations on the state stores, the clients it calls, its queue), built from the process's
 * runtime, never the runtime itself.
 */
export function makeJobHelpers(rt: Runtime): JobHelpers {
  const shared = sharedHelpers(rt);
  const sweep = sweepHelpers(rt, shared);
  const billingOutage = billingOutageHelpers(rt);
  return {
    billingOutage,
    billingCompany: billingCompanyGuardOf(rt),
    pull: pullHelpers(rt, shared),
    upsert: upsertHelpers(rt, shared, billingOutage),
    backfill: { logger: rt.logger, metrics: rt.metrics },
    sweep,
    failedUpsert: failedUpsertHelpers(rt),
    reconcile: reconcileHelpers(rt, shared, sweep),
  };
}

/** What several job types share: one per process. */
interface SharedHelpers {
  /** Pulls and reconciliations call the vendor: at most maxJobsPerConnection of one connection at once. */
  connectionSlots: ConnectionSlotsPolicy;
  /** Pulls, upserts and reconciles of a paused connection are held as they start. */
  gate: ConnectionGate;
  /** Read at each use: a config reload (app/reload-config.ts) changes the connections. */
  connectionIds(): string[];
}

function sharedHelpers(rt: Runtime): SharedHelpers {
  const { config } = rt;
  return {
    connectionSlots: {
      slots: rt.connectionSlots,
      max: config.sync.maxJobsPerConnection,
      leaseMs: config.sync.lockDurationMs,
      retryMs: 1_000,
      line: rt.wakeLine,
    },
    gate: connectionGate(rt.connectionControl, { recheckSeconds: config.sync.pausedRecheckSeconds }),
    connectionIds: () => rt.config.connections.map((c) => c.id),
  };
}

function sweepHelpers(rt: Runtime, { connectionIds }: SharedHelpers): SweepHelpers {
  return {
    logger: rt.logger,
    metrics: rt.metrics,
    config: { sync: { sweepGraceSeconds: rt.config.sync.sweepGraceSeconds } },
    connectionIds,
    inFlight: rt.inFlight,
    quarantine: rt.quarantine,
    locks: rt.locks,
    ledger: rt.ledger,
    syncStatus: rt.syncStatus,
    backfillRuns: rt.backfillRuns,
    queues: { upsert: rt.queues.upsert },
    recordHistory: rt.recordHistory,
    sampleTrends: (connection) => sampleTrends(rt, connection),
  };
}

function billingOutageHelpers(rt: Runtime): BillingOutageHelpers {
  return {
    logger: rt.logger,
    metrics: rt.metrics,
    config: { billing: { outage: rt.config.billing.outage } },
    outages: rt.outages,
    locks: rt.locks,
    billing: rt.billing,
    queues: { upsert: rt.queues.upsert },
  };
}

function pullHelpers(rt: Runtime, { connectionSlots, gate, connectionIds }: SharedHelpers): PullHelpers {
  const { sync } = rt.config;
  return {
    logger: rt.logger,
    metrics: rt.metrics,
    connectionGate: gate,
    config: {
      sync: {
        backlogHighWater: sync.backlogHighWater,
        upsertBatchSize: sync.upsertBatchSize,
        upsertConcurrency: sync.upsertConcurrency,
        vendorOutageRetrySeconds: sync.vendorOutageRetrySeconds,
        quotaWaitInPlaceMs: sync.quotaWaitInPlaceMs,
      },
    },
    jobSlots: connectionSlots,
    leases: rt.leases,
    outages: rt.outages,
    connection: rt.connection,
    locks: rt.locks,
    checkpoints: rt.checkpoints,
    ledger: rt.ledger,
    scratchIds: (connection, name) => rt.reconcileState.scratchSet(connection, name),
    quarantine: rt.quarantine,
    syncStatus: rt.syncStatus,
    backfillRuns: rt.backfillRuns,
    inFlight: rt.inFlight,
    connectionIds,
    queues: { upsert: rt.queues.upsert },
    webhookEvents: rt.webhookEvents,
    webhookHealth: rt.webhookHealth,
    // Read at each use: a config reload may set or change http.publicUrl.
    documentLinker: (connection) => documentLinkerFor(rt.config.http, connection),
  };
}

function upsertHelpers(rt: Runtime, { gate }: SharedHelpers, billingOutage: BillingOutageHelpers): UpsertBatchHelpers {
  const { config } = rt;
  const perKey = config.billing.rateLimit.scope === 'key';
  return {
    logger: rt.logger,
    metrics: rt.metrics,
    connectionGate: gate,
    leases: rt.leases,
    config: { sync: { dependencyWaitSeconds: config.sync.dependencyWaitSeconds, backoffMs: config.sync.backoffMs } },
    billingFor: (id) => rt.billingOf(id),
    keyBudgets: perKey ? rt.billingKeyBudgets : undefined,
    billingBudget: perKey ? undefined : rt.billingBudget,
    upsertState: rt.upsertState,
    recordHistory: rt.recordHistory,
    customersEnsured: rt.customersEnsured,
    ledger: rt.ledger,
    quarantine: rt.quarantine,
    inFlight: rt.inFlight,
    backfillRuns: rt.backfillRuns,
    queues: { upsert: rt.queues.upsert },
    breaker: billingBreaker(billingOutage),
    review: {
      // The config as it is now (a reload may change a connection's review); a removed connection: none.
      configOf: (id) => rt.config.connections.find((c) => c.id === id)?.review ?? 'none',
      entitiesOf: (id) => rt.config.connections.find((c) => c.id === id)?.entities ?? [],
      billingCurrency: (id) => rt.billingOf(id).baseCurrency,
      queue: rt.review,
    },
    freshness: rt.freshness,
  };
}

function reconcileHelpers(
  rt: Runtime,
  { connectionSlots, gate }: SharedHelpers,
  sweep: SweepHelpers,
): JobHelpers['reconcile'] {
  const { logger, metrics, config } = rt;
  return {
    logger,
    metrics,
    config: {
      reconcile: { timeZone: config.reconcile.timeZone },
      sync: { quotaWaitInPlaceMs: config.sync.quotaWaitInPlaceMs },
    },
    jobSlots: connectionSlots,
    leases: rt.leases,
    connectionGate: gate,
    connection: rt.connection,
    ledger: rt.ledger,
    checkpoints: rt.checkpoints,
    quarantine: rt.quarantine,
    review: rt.review,
    reconcileState: rt.reconcileState,
    queues: { pull: rt.queues.pull, upsert: rt.queues.upsert },
    inFlight: rt.inFlight,
    backfillRuns: rt.backfillRuns,
    recordHistory: rt.recordHistory,
    documentLinker: (connection) => documentLinkerFor(rt.config.http, connection),
    sweep: (connection) => sweepInFlight(sweep, connection),
    history: {
      logger,
      metrics,
      // Read at each run: a config reload changes the cycle, the invariant and the connections.
      config: {
        get reconcile() {
          return rt.config.reconcile;
        },
      },
      connectionIds: () => rt.config.connections.map((c) => c.id),
      connection: rt.connection,
      ledger: rt.ledger,
      ledgerDates: rt.ledgerDates,
      reconcileCycle: rt.reconcileCycle,
      reconcileState: rt.reconcileState,
      quarantine: rt.quarantine,
    },
  };
}

/** What accounting for a failed upsert job uses: the workers' 'failed' event, the sweep, a backfill counting its run. */
export function failedUpsertHelpers(rt: Runtime): FailedUpsertHelpers {
  return {
    logger: rt.logger,
    metrics: rt.metrics,
    quarantine: rt.quarantine,
    inFlight: rt.inFlight,
    locks: rt.locks,
    queues: { upsert: rt.queues.upsert },
    backfillRuns: rt.backfillRuns,
  };
}
