import type { Redis } from 'ioredis';
import type { TokenStore } from '../../src/auth/token-store.js';
import type { AppConfig } from '../../src/config.js';
import { BackfillRuns } from '../../src/pipeline/backfill-runs.js';
import type { BillingBudget } from '../../src/pipeline/billing-budget.js';
import { BillingCompanies } from '../../src/pipeline/billing-companies.js';
import { BillingKeyBudgets } from '../../src/pipeline/billing-key-budgets.js';
import { Checkpoints } from '../../src/pipeline/checkpoints.js';
import { ConnectionControl } from '../../src/pipeline/connection-control.js';
import { ConnectionSlots } from '../../src/pipeline/connection-slots.js';
import { ConnectionState } from '../../src/pipeline/connection-state.js';
import { CustomersEnsured } from '../../src/pipeline/customers-ensured.js';
import { InFlight } from '../../src/pipeline/in-flight.js';
import type { StateKeys } from '../../src/pipeline/keys.js';
import type { LeaseKeeper } from '../../src/pipeline/lease-keeper.js';
import { Ledger } from '../../src/pipeline/ledger.js';
import { LedgerDateIndex } from '../../src/pipeline/ledger-date-index.js';
import { Outages } from '../../src/pipeline/outages.js';
import { RecordHistory } from '../../src/pipeline/record-history.js';
import { QuarantineWithHistory } from '../../src/pipeline/record-history-quarantine.js';
import { ReviewQueue } from '../../src/pipeline/review-queue.js';
import type { Quotas } from '../../src/pipeline/quotas.js';
import { ReconcileCycleState } from '../../src/pipeline/reconcile-cycle-state.js';
import { ReconcileState } from '../../src/pipeline/reconcile-state.js';
import { RecordLock } from '../../src/pipeline/record-lock.js';
import { RedisHealth } from '../../src/pipeline/redis-health.js';
import { RunHistory } from '../../src/pipeline/run-history.js';
import { SyncStatus } from '../../src/pipeline/sync-status.js';
import { UpsertState } from '../../src/pipeline/upsert-state.js';
import { WakeLine } from '../../src/pipeline/wake-line.js';
import { WebhookEvents } from '../../src/pipeline/webhook-events.js';
import { WebhookHealth } from '../../src/pipeline/webhook-health.js';
import { FreshnessSamples } from '../../src/pipeline/freshness-samples.js';
import { TrendBuckets } from '../../src/pipeline/trend-buckets.js';
import { AuditLog } from '../../src/pipeline/audit-log.js';
import { ConsoleSessions } from '../../src/pipeline/console-sessions.js';
import { PendingAuthorizations } from '../../src/pipeline/pending-authorizations.js';
import { SignInLimiter } from '../../src/pipeline/sign-in-limiter.js';
import { FixedWindowLimiter } from '../../src/pipeline/fixed-window-limiter.js';
import { SourceReadCache } from '../../src/pipeline/source-read-cache.js';
import { StoredConnections } from '../../src/pipeline/stored-connections.js';
import { AgentInbox } from '../../src/pipeline/agent-inbox.js';
import { AgentCredentials } from '../../src/pipeline/agent-credentials.js';
import type { Metrics } from '../../src/observability/metrics.js';
import type { StateStores } from '../../jobs/runtime.js';

/** Every state store on the state connection; the ones other parts of the runtime use too are built before and passed in. */
export function createStateStores(
  redis: Redis,
  keys: StateKeys,
  config: AppConfig,
  shared: {
    leases: LeaseKeeper;
    quotas: Quotas;
    tokens: TokenStore;
    billingBudget: BillingBudget;
    metrics: Pick<Metrics, 'apiRefusals'>;
  },
): StateStores {
  const { leases, quotas, tokens, billingBudget, metrics } = shared;
  const prefix = config.redis.prefix;
  const recordHistory = new RecordHistory(redis, keys, config.history);
  return {
    ledger: new Ledger(redis, keys),
    ledgerDates: new LedgerDateIndex(redis, keys),
    reconcileCycle: new ReconcileCycleState(redis, keys),
    checkpoints: new Checkpoints(redis, keys),
    quarantine: new QuarantineWithHistory(redis, keys, recordHistory),
    review: new ReviewQueue(redis, keys),
    inFlight: new InFlight(redis, keys),
    outages: new Outages(redis, keys),
    quotas,
    connectionSlots: new ConnectionSlots(redis, keys),
    wakeLine: new WakeLine(redis, keys),
    locks: new RecordLock(redis, keys, leases),
    leases,
    tokens,
    upsertState: new UpsertState(redis, keys),
    customersEnsured: new CustomersEnsured(redis, keys),
    syncStatus: new SyncStatus(redis, keys),
    reconcileState: new ReconcileState(redis, keys),
    backfillRuns: new BackfillRuns(redis, keys),
    runHistory: new RunHistory(redis, keys, config.sync.runHistory),
    recordHistory,
    billingBudget,
    billingKeyBudgets: new BillingKeyBudgets(
      redis,
      keys,
      config.billing.rateLimit.max,
      config.billing.rateLimit.durationMs,
    ),
    billingCompanies: new BillingCompanies(redis, keys),
    health: new RedisHealth(redis),
    connectionControl: new ConnectionControl(redis, keys),
    connectionState: new ConnectionState(redis, keys),
    webhookEvents: new WebhookEvents(redis, keys),
    webhookHealth: new WebhookHealth(redis, keys),
    freshness: new FreshnessSamples(redis, keys),
    trends: new TrendBuckets(redis, keys),
    audit: new AuditLog(redis, prefix, {
      retentionDays: config.audit.retentionDays,
      refusals: { counter: metrics.apiRefusals },
    }),
    consoleSessions: new ConsoleSessions(redis, prefix, { sealer: tokens.sealer }),
    signInLimiter: new SignInLimiter(redis, prefix),
    pendingAuthorizations: new PendingAuthorizations(redis, prefix, tokens.sealer),
    sourceReads: new SourceReadCache(redis, keys),
    windowLimiter: (name, uses, windowSeconds) => new FixedWindowLimiter(redis, prefix, name, uses, windowSeconds),
    storedConnections: new StoredConnections(redis, prefix, keys, tokens.sealer),
    agentInbox: new AgentInbox(redis, keys),
    agentCredentials: new AgentCredentials(redis, keys),
  };
}
