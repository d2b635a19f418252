import { FlowProducer, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { RedisOutageLog } from '../src/observability/redis-outage-log.js';
import type { Logger } from 'pino';
import type { Connector, ReadContext } from '../src/connector/types.js';
import { TokenStore } from '../src/auth/token-store.js';
import type { BillingClient } from '../src/billing/client.js';
import type { AppConfig, ConnectionConfig } from '../src/config.js';
import type { VendorClient } from '../src/http/vendor-client.js';
import { type Metrics } from '../src/observability/metrics.js';
import type { BackfillRuns } from '../src/pipeline/backfill-runs.js';
import { BillingBudget } from '../src/pipeline/billing-budget.js';
import type { BillingCompanies } from '../src/pipeline/billing-companies.js';
import type { BillingKeyBudgets } from '../src/pipeline/billing-key-budgets.js';
import type { Checkpoints } from '../src/pipeline/checkpoints.js';
import type { ConnectionSlots } from '../src/pipeline/connection-slots.js';
import type { WakeLine } from '../src/pipeline/wake-line.js';
import type { ConnectionControl } from '../src/pipeline/connection-control.js';
import type { CustomersEnsured } from '../src/pipeline/customers-ensured.js';
import { type StateKeys } from '../src/pipeline/keys.js';
import type { InFlight } from '../src/pipeline/in-flight.js';
import type { Ledger } from '../src/pipeline/ledger.js';
import type { LedgerDateIndex } from '../src/pipeline/ledger-date-index.js';
import type { ReconcileCycleState } from '../src/pipeline/reconcile-cycle-state.js';
import type { Outages } from '../src/pipeline/outages.js';
import type { Quarantine } from '../src/pipeline/quarantine.js';
import type { ReviewQueue } from '../src/pipeline/review-queue.js';
import { Quotas } from '../src/pipeline/quotas.js';
import type { ReconcileState } from '../src/pipeline/reconcile-state.js';
import { LeaseKeeper } from '../src/pipeline/lease-keeper.js';
import type { RecordLock } from '../src/pipeline/record-lock.js';
import type { RedisHealth } from '../src/pipeline/redis-health.js';
import type { RecordHistory } from '../src/pipeline/record-history.js';
import type { RunHistory } from '../src/pipeline/run-history.js';
import type { SyncStatus } from '../src/pipeline/sync-status.js';
import type { UpsertState } from '../src/pipeline/upsert-state.js';
import type { ConnectionState } from '../src/pipeline/connection-state.js';
import type { WebhookEvents } from '../src/pipeline/webhook-events.js';
import type { WebhookHealth } from '../src/pipeline/webhook-health.js';
import type { FreshnessSamples } from '../src/pipeline/freshness-samples.js';
import type { TrendBuckets } from '../src/pipeline/trend-buckets.js';
import type { AuditLog } from '../src/pipeline/audit-log.js';
import type { ConsoleSessions } from '../src/pipeline/console-sessions.js';
import type { PendingAuthorizations } from '../src/pipeline/pending-authorizations.js';
import type { SignInLimiter } from '../src/pipeline/sign-in-limiter.js';
import type { FixedWindowLimiter } from '../src/pipeline/fixed-window-limiter.js';
import type { SourceReadCache } from '../src/pipeline/source-read-cache.js';
import type { StoredConnections } from '../src/pipeline/stored-connections.js';
import type { AgentInbox } from '../src/pipeline/agent-inbox.js';
import type { AgentCredentials } from '../src/pipeline/agent-credentials.js';
import { jobOptions } from './catalog.js';

/** Our state in Redis, one store per concern; every write a store offers is atomic where jobs can race. */
export interface StateStores {
  ledger: Ledger;
  /** The ledger's document-date index (counts and ids by invoice date). */
  ledgerDates: LedgerDateIndex;
  /** The scheduled reconcile's history cycle, per connection. */
  reconcileCycle: ReconcileCycleState;
  checkpoints: Checkpoints;
  quarantine: Quarantine;
  /** Records held for review before write (`connections[].review`). */
  review: ReviewQueue;
  inFlight: InFlight;
  /** Billing and vendor outages in progress, shared by every process. */
  outages: Outages;
  quotas: Quotas;
  /** Each connection's jobs running now, across every process (sync.maxJobsPerConnection). */
  connectionSlots: ConnectionSlots;
  /** Wake-up instants of a connection's jobs waiting for the same slot, spaced out. */
  wakeLine: WakeLine;
  locks: RecordLock;
  /** Renews every lease the process holds (job slots, pull locks, record locks) on one timer. */
  leases: LeaseKeeper;
  tokens: TokenStore;
  upsertState: UpsertState;
  /** A connection's state as a whole: starting over for another billing company (a rebind). */
  connectionState: ConnectionState;
  customersEnsured: CustomersEnsured;
  syncStatus: SyncStatus;
  reconcileState: ReconcileState;
  backfillRuns: BackfillRuns;
  /** The last runs of each pull stream and of reconciliation, per connection (`erp-sync runs`). */
  runHistory: RunHistory;
  /** Each record's outcomes, bounded (`erp-sync explain`, `erp-sync history`). */
  recordHistory: RecordHistory;
  /** The deployment's billing budget (`rateLimit.scope: deployment`): every billing request takes a slot. */
  billingBudget: BillingBudget;
  /** Per billing key budgets (`billing.rateLimit.scope: key`). */
  billingKeyBudgets: BillingKeyBudgets;
  /** The billing company each connection's state belongs to. */
  billingCompanies: BillingCompanies;
  health: RedisHealth;
  /** Connections an operator paused, and the jobs held meanwhile. */
  connectionControl: ConnectionControl;
  /** Webhook events between a delivery and their targeted read; what deliveries announced. */
  webhookEvents: WebhookEvents;
  /** Whether each connection's webhook deliveries can be relied on (its safety-net schedule). */
  webhookHealth: WebhookHealth;
  /** Recent change→billing latencies per connection, shared by every process (`connections`, `status`). */
  freshness: FreshnessSamples;
  /** The console's trend series per connection, sampled by the scheduled sweep. */
  trends: TrendBuckets;
  /** What was done through the API, the console and the command line (operations/audited.ts), and the refusals. */
  audit: AuditLog;
  /** The console's signed-in sessions. */
  consoleSessions: ConsoleSessions;
  /** Wrong tokens counted per client address, shared by the API, the queue UI and the console's sign-in. */
  signInLimiter: SignInLimiter;
  /** OAuth consents started from the console and not yet finished. */
  pendingAuthorizations: PendingAuthorizations;
  /** Records read from the source for a person, kept a few minutes for every worker. */
  sourceReads: SourceReadCache<unknown>;
  /** A limit of `uses` per `windowSeconds`, named in its keys (a person's source reads, the API's checks). */
  windowLimiter(name: string, uses: number, windowSeconds: number): FixedWindowLimiter;
  /** Connections created through the API or the command line (not the YAML's), and their version. */
  storedConnections: StoredConnections;
  /** What agents beside a source pushed (Tally's agent mode), and each agent's last contact. */
  agentInbox: AgentInbox;
  /** Each connection's agent credential, stored as its hash. */
  agentCredentials: AgentCredentials;
}

/**
 * The billing company a connection writes to: the client holding its keys, and what may be shown of it
 * (names and fingerprints, never a key).
 */
export interface ConnectionBilling {
  client: BillingClient;
  /** Non-secret id of the company (state, metrics): its configured name, else `key-<fingerprint>`. */
  company: string;
  /** Non-secret id (fingerprint) of the key: its rate budget under `rateLimit.scope: key`. */
  keyId: string;
  /** The company's base currency: mapped bodies' exchange rates are relative to it. */
  baseCurrency: string;
  /** Whether the connection has an attachment key (ERP document links are attached). */
  canAttach: boolean;
  /**
   * Where billing calls made outside upsert jobs take their slot: the key's budget (`scope: key`); with
   * one budget for the deployment, the client paces each request itself and this waits for nothing.
   */
  budget: { take(signal?: AbortSignal): Promise<void> };
}

/** One configured connection: its config, its connector, its billing company, and how a stream read of it starts. */
export interface ConnectionHandle {
  config: ConnectionConfig;
  connector: Connector<any>;
  billing: ConnectionBilling;
  /** A stream read's context: the connection's shared vendor client and its settings as the config parse left them. */
  readContext(read: Pick<ReadContext, 'logger' | 'signal' | 'until' | 'window' | 'knownVersions'>): ReadContext;
}

/**
 * The process's parts, built once by `createRuntime` (the one place that touches Redis connections).
 * Job processors never receive it whole: `makeJobHelpers` (job-helpers.ts) hands each only what it uses.
 */
export interface Runtime extends StateStores {
  config: AppConfig;
  logger: Logger;
  metrics: Metrics;
  /** The state connection and key names, for inspection (tests, tools); code goes through the stores. */
  redis: Redis;
  /** Where every Redis client of the process reports its connection errors: an outage in three kinds of line. */
  redisOutage: RedisOutageLog;
  keys: StateKeys;
  queues: { pull: Queue; upsert: Queue; backfill: Queue; reconcile: Queue; sweep: Queue };
  flow: FlowProducer;
  /** The default billing company's client (`billing`), for calls made for no connection (the outage probe). */
  billing: BillingClient;
  /** The client of the billing company a connection writes to: every billing call made for a connection goes through it. */
  billingFor(connectionId: string): BillingClient;
  /**
   * The billing company a connection writes to, also for a connection a config reload removed (its
   * upserts already queued still go through, to the company they were read for).
   */
  billingOf(connectionId: string): ConnectionBilling;
  options: ReturnType<typeof jobOptions>;
  connection(id: string): ConnectionHandle;
  vendorClient(id: string): VendorClient;
  /**
   * What a BullMQ Worker of `queue` needs: a new worker-style connection (maxRetriesPerRequest null, closed
   * by close()) and the queue's prefix (queuePrefix: hash-tagged on a Cluster).
   */
  workerOptions(queue?: string): { connection: Redis; prefix: string };
  /**
   * Swaps in a reloaded config (app/reload-config.ts decides what of it may change while running):
   * `config` and connection lookups answer with `next` at once; the vendor client of a connection whose
   * config changed or went away is dropped, so its next use builds one from the new config (a job that
   * holds the old client keeps it until it ends).
   */
  reconfigure(next: AppConfig): void;
  close(): Promise<void>;
}
