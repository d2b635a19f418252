/**
 * Every Redis key of our own state, in one place. `prefix` is the config's redis.prefix (use a
 * {hash-tag} on Redis Cluster). Connection ids and entity names cannot contain ':' (config schema).
 */
export function stateKeys(prefix: string) {
  return {
    ledger: (connection: string, entity: string) => `${prefix}:ledger:${connection}:${entity}`,
    /** The ledger's document-date index: ERP id scored by the document's day (ledger-date-index.ts). */
    ledgerByDate: (connection: string, entity: string) => `${prefix}:ledger-by-date:${connection}:${entity}`,
    /** Where the scheduled reconcile's history cycle stands (reconcile-cycle-state.ts). */
    reconcileCycle: (connection: string) => `${prefix}:reconcile-cycle:${connection}`,
    checkpoint: (connection: string) => `${prefix}:checkpoint:${connection}`,
    /** Per entity: how often its checkpoint was rewound (a pull saves only if none happened since it read). */
    checkpointRewinds: (connection: string) => `${prefix}:checkpoint-rewinds:${connection}`,
    windowCheckpoint: (connection: string, entity: string) => `${prefix}:window-checkpoint:${connection}:${entity}`,
    quarantine: (connection: string) => `${prefix}:quarantine:${connection}`,
    customersEnsured: (connection: string) => `${prefix}:customers-ensured:${connection}`,
    recordLock: (connection: string, entity: string, erpId: string) => `${prefix}:lock:${connection}:${entity}:${erpId}`,
    /** The vendor calls of the last 60 s (a log) and of the last 24 h (1-minute buckets): rolling windows. */
    quotaMinute: (connection: string) => `${prefix}:quota:${connection}:minute`,
    quotaDay: (connection: string) => `${prefix}:quota:${connection}:day`,
    quotaConcurrency: (connection: string) => `${prefix}:quota:${connection}:inflight`,
    park: (connection: string) => `${prefix}:park:${connection}`,
    /** The connection's jobs running now (pull, reconcile), by job id, scored by lease expiry. */
    connectionSlots: (connection: string) => `${prefix}:connection-slots:${connection}`,
    /** The last wake-up instant handed to a job of the connection waiting in a lane (wake-line.ts). */
    wakeLine: (connection: string, lane: string) => `${prefix}:wake-line:${connection}:${lane}`,
    reconcile: (connection: string) => `${prefix}:reconcile:${connection}`,
    /** A reconcile run's scratch set of ids (billing ids seen, source ids), dropped when the run ends. */
    reconcileScratch: (connection: string, name: string) => `${prefix}:reconcile:${connection}:${name}`,
    verdicts: (connection: string) => `${prefix}:verdict:${connection}`,
    lastSuccess: (connection: string) => `${prefix}:last-success:${connection}`,
    /** Per entity: when and why the last incremental pull failed (cleared by the next success). */
    lastError: (connection: string) => `${prefix}:last-error:${connection}`,
    /** Records enqueued for upsert and not yet written, skipped or quarantined (field entity|erpId). */
    inFlight: (connection: string) => `${prefix}:in-flight:${connection}`,
    /** An outage in progress of billing ('billing') or of a connection's vendor (the connection id). */
    outage: (target: string) => `${prefix}:outage:${target}`,
    /** Held by the one process that probes billing during an outage. */
    billingProbe: () => `${prefix}:billing-probe`,
    /** The deployment's billing budget: a sliding log of request times (billing-budget.ts). */
    billingRate: () => `${prefix}:billing-rate`,
    /** The in-flight sweep's record: when it last ran, how many records it recovered in all and when. */
    sweep: (connection: string) => `${prefix}:sweep:${connection}`,
    /** The billing company the connection's state (ledger, customers ensured, checkpoints) was written for. */
    billingCompany: (connection: string) => `${prefix}:billing-company:${connection}`,
    /** One billing key's rate budget under `billing.rateLimit.scope: key` (by the key's fingerprint, never the key). */
    billingKeyBudget: (keyId: string) => `${prefix}:billing-key-budget:${keyId}`,
    /** Upsert job ids a backfill run enqueued and that may not be finished yet. */
    runUpserts: (runId: string) => `${prefix}:run-upserts:${runId}`,
    /** Set while an operator has paused the connection: since when, by whom, why (JSON). */
    paused: (connection: string) => `${prefix}:paused:${connection}`,
    /** The jobs of a paused connection held back from running ("queue:jobId"), released on resume. */
    heldJobs: (connection: string) => `${prefix}:held-jobs:${connection}`,
    /** The last runs of one stream of a connection, newest first, trimmed to `sync.runHistory` at each write (RunHistory). */
    runs: (connection: string, stream: string) => `${prefix}:runs:${connection}:${stream}`,
  };
}
export type StateKeys = ReturnType<typeof stateKeys>;
