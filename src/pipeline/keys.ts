/**
 * How keys are named on the Redis in use. On a Redis Cluster (`cluster: true`) every key of a connection
 * carries the connection id as its hash tag (`…:{<connection>}:…`): all of one connection's keys share a
 * slot, so every Lua script and MULTI (which only ever touch one connection's keys) runs on one node,
 * while connections spread over the shards (https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/#hash-tags).
 * On one Redis the names are exactly those of earlier releases (no tag): an upgrade renames nothing.
 */
export interface KeyLayout {
  cluster?: boolean;
}

/** The hash tag of a connection's keys on a Cluster; the bare id on one Redis. */
export function connectionTag(connection: string, layout: KeyLayout = {}): string {
  return layout.cluster ? `{${connection}}` : connection;
}

/**
 * Every Redis key of our own state, in one place. `prefix` is the config's redis.prefix. Connection ids
 * and entity names cannot contain ':' (config schema). Keys that belong to no connection (a backfill
 * run's upsert ids, a billing key's budget, the billing probe, billing's outage) are each used alone,
 * never with another key in one script or transaction, so on a Cluster their slot does not matter.
 */
export function stateKeys(prefix: string, layout: KeyLayout = {}) {
  const c = (connection: string) => connectionTag(connection, layout);
  return {
    ledger: (connection: string, entity: string) => `${prefix}:ledger:${c(connection)}:${entity}`,
    /** The ledger's document-date index: ERP id scored by the document's day (ledger-date-index.ts). */
    ledgerByDate: (connection: string, entity: string) => `${prefix}:ledger-by-date:${c(connection)}:${entity}`,
    /** Where the scheduled reconcile's history cycle stands (reconcile-cycle-state.ts). */
    reconcileCycle: (connection: string) => `${prefix}:reconcile-cycle:${c(connection)}`,
    checkpoint: (connection: string) => `${prefix}:checkpoint:${c(connection)}`,
    /** Per entity: how often its checkpoint was rewound (a pull saves only if none happened since it read). */
    checkpointRewinds: (connection: string) => `${prefix}:checkpoint-rewinds:${c(connection)}`,
    windowCheckpoint: (connection: string, entity: string) => `${prefix}:window-checkpoint:${c(connection)}:${entity}`,
    quarantine: (connection: string) => `${prefix}:quarantine:${c(connection)}`,
    customersEnsured: (connection: string) => `${prefix}:customers-ensured:${c(connection)}`,
    recordLock: (connection: string, entity: string, erpId: string) =>
      `${prefix}:lock:${c(connection)}:${entity}:${erpId}`,
    /** The vendor calls of the last 60 s (a log) and of the last 24 h (1-minute buckets): rolling windows. */
    quotaMinute: (connection: string) => `${prefix}:quota:${c(connection)}:minute`,
    quotaDay: (connection: string) => `${prefix}:quota:${c(connection)}:day`,
    quotaConcurrency: (connection: string) => `${prefix}:quota:${c(connection)}:inflight`,
    /** Announced reads waiting for a quota slot (lease → expiry), and history's last paced call (quotas.ts). */
    quotaAnnouncedWaiting: (connection: string) => `${prefix}:quota:${c(connection)}:announced-waiting`,
    quotaHistoryLast: (connection: string) => `${prefix}:quota:${c(connection)}:history-last`,
    park: (connection: string) => `${prefix}:park:${c(connection)}`,
    /** The connection's jobs running now (pull, reconcile), by job id, scored by lease expiry. */
    connectionSlots: (connection: string) => `${prefix}:connection-slots:${c(connection)}`,
    /** The last wake-up instant handed to a job of the connection waiting in a lane (wake-line.ts). */
    wakeLine: (connection: string, lane: string) => `${prefix}:wake-line:${c(connection)}:${lane}`,
    reconcile: (connection: string) => `${prefix}:reconcile:${c(connection)}`,
    /** A reconcile run's scratch set of ids (billing ids seen, source ids), dropped when the run ends. */
    reconcileScratch: (connection: string, name: string) => `${prefix}:reconcile:${c(connection)}:${name}`,
    verdicts: (connection: string) => `${prefix}:verdict:${c(connection)}`,
    lastSuccess: (connection: string) => `${prefix}:last-success:${c(connection)}`,
    /** Per entity: when and why the last incremental pull failed (cleared by the next success). */
    lastError: (connection: string) => `${prefix}:last-error:${c(connection)}`,
    /** Records enqueued for upsert and not yet written, skipped or quarantined (field entity|erpId). */
    inFlight: (connection: string) => `${prefix}:in-flight:${c(connection)}`,
    /** An outage in progress of billing ('billing') or of a connection's vendor (the connection id). */
    outage: (target: string) => `${prefix}:outage:${c(target)}`,
    /** Held by the one process that probes billing during an outage. */
    billingProbe: () => `${prefix}:billing-probe`,
    /** The deployment's billing budget: a sliding log of request times (billing-budget.ts). */
    billingRate: () => `${prefix}:billing-rate`,
    /** The in-flight sweep's record: when it last ran, how many records it recovered in all and when. */
    sweep: (connection: string) => `${prefix}:sweep:${c(connection)}`,
    /** The billing company the connection's state (ledger, customers ensured, checkpoints) was written for. */
    billingCompany: (connection: string) => `${prefix}:billing-company:${c(connection)}`,
    /** One billing key's rate budget under `billing.rateLimit.scope: key` (by the key's fingerprint, never the key). */
    billingKeyBudget: (keyId: string) => `${prefix}:billing-key-budget:${keyId}`,
    /** An app's vendor calls in one calendar month (UTC, `YYYY-MM`), shared by its connections (quotas.ts). */
    appMonthCalls: (app: string, month: string) => `${prefix}:app-month-calls:${app}:${month}`,
    /** Upsert job ids a backfill run enqueued and that may not be finished yet. */
    runUpserts: (runId: string) => `${prefix}:run-upserts:${runId}`,
    /** Set while an operator has paused the connection: since when, by whom, why (JSON). */
    paused: (connection: string) => `${prefix}:paused:${c(connection)}`,
    /** The jobs of a paused connection held back from running ("queue:jobId"), released on resume. */
    heldJobs: (connection: string) => `${prefix}:held-jobs:${c(connection)}`,
    /** A connection's vendor lookups as one process read them, for every process until they expire (shared-lookups.ts). */
    lookups: (connection: string, what: string) => `${prefix}:lookups:${c(connection)}:${what}`,
    /** The last runs of one stream of a connection, newest first, trimmed to `sync.runHistory` at each write (RunHistory). */
    runs: (connection: string, stream: string) => `${prefix}:runs:${c(connection)}:${stream}`,
    ...recordAndChangeKeys(prefix, c),
  };
}

/**
 * The keys of what is told about records and changes, beside the pipeline's own state: a record's history,
 * the records held for review, webhook events and their health, freshness samples. All per connection.
 */
function recordAndChangeKeys(prefix: string, c: (connection: string) => string) {
  return {
    /** Records held for review before write (field entity|erpId), review-queue.ts. */
    review: (connection: string) => `${prefix}:review:${c(connection)}`,
    /** Beside it: each held record's "state|rule", what counting reads (never the bodies). */
    reviewIndex: (connection: string) => `${prefix}:review-index:${c(connection)}`,
    /** Set once a `first-sync` connection's first sync is approved (or it was found already synced). */
    reviewFirstSync: (connection: string) => `${prefix}:review-first-sync:${c(connection)}`,
    /** One record's history as releases before the buckets kept it (a list per record): read until it expires. */
    recordHistory: (connection: string, entity: string, erpId: string) =>
      `${prefix}:history:${c(connection)}:${entity}:${erpId}`,
    /** The histories of the records of one bucket (record-history.ts): ERP id, then its outcomes, per record. */
    recordHistoryBucket: (connection: string, entity: string, bucket: number) =>
      `${prefix}:history-bucket:${c(connection)}:${entity}:${bucket}`,
    /** The next bucket the sweep's prune of record history looks at (record-history.ts). */
    recordHistoryPrune: (connection: string) => `${prefix}:history-prune:${c(connection)}`,
    /** Webhook events of one stream not yet read: ERP id → {op, at} (webhook-events.ts). */
    webhookPending: (connection: string, entity: string) => `${prefix}:webhook-pending:${c(connection)}:${entity}`,
    /** The stream's current batch number: the targeted read that takes the pending events bumps it. */
    webhookBatch: (connection: string, entity: string) => `${prefix}:webhook-batch:${c(connection)}:${entity}`,
    /** The events a targeted read took, kept until it ends (a retry reads them again). */
    webhookClaimed: (connection: string, entity: string, batch: number) =>
      `${prefix}:webhook-claimed:${c(connection)}:${entity}:${batch}`,
    /** Records a delivery announced ("entity|id"), scored by when: what the safety-net pull checks against. */
    webhookAnnounced: (connection: string) => `${prefix}:webhook-announced:${c(connection)}`,
    /** Events already received ("entity|id|op|at"), scored by when: a replayed delivery is a duplicate. */
    webhookSeen: (connection: string) => `${prefix}:webhook-seen:${c(connection)}`,
    /** The connection's webhook health: first and last delivery, changes missed, degraded since (webhook-health.ts). */
    webhookHealth: (connection: string) => `${prefix}:webhook-health:${c(connection)}`,
    /** A quarantined record as last read from the source for a person, with when (source-read-cache.ts). */
    sourceRead: (connection: string, entity: string, erpId: string) =>
      `${prefix}:source-read:${c(connection)}:${entity}:${erpId}`,
    /** Recent change→billing latencies of the connection, newest first, capped (freshness-samples.ts). */
    freshness: (connection: string) => `${prefix}:freshness:${c(connection)}`,
    /** The console's trend series: hourly and 4-hourly buckets in one capped hash (trend-buckets.ts). */
    trend: (connection: string) => `${prefix}:trend:${c(connection)}`,
    /** Records an agent beside the source pushed, latest copy per id: id → raw JSON (agent-inbox.ts). */
    agentRecords: (connection: string, entity: string) => `${prefix}:agent-records:${c(connection)}:${entity}`,
    /** Beside them: each id scored by its source change counter (Tally's AlterID), the order reads go in. */
    agentOrder: (connection: string, entity: string) => `${prefix}:agent-order:${c(connection)}:${entity}`,
    /** The agent's acknowledged position per entity, its last contact, version, backlog and lookups. */
    agentState: (connection: string) => `${prefix}:agent-state:${c(connection)}`,
    /** The SHA-256 of the connection's agent credential and when it was made (agent-credentials.ts). */
    agentCredential: (connection: string) => `${prefix}:agent-credential:${c(connection)}`,
  };
}
export type StateKeys = ReturnType<typeof stateKeys>;
