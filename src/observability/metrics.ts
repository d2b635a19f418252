import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { QUARANTINE_REASON_CODES } from '../mapping/quarantine-reason.js';
import { LEASE_KINDS } from '../pipeline/lease-kind.js';
import { REFUSAL_REASONS } from '../pipeline/refusal-log.js';
import { forcedCollections } from './memory-guard.js';

/**
 * Every metric the worker exports, declared once. Prefix erpsync_, base units, bounded labels only:
 * connection (from config), entity (invoices|credit-notes|customers), reason/kind/action (small enums),
 * endpoint (templated paths), never a record id. Node's own process metrics keep their standard names
 * (process_*, nodejs_*) so stock dashboards and alerts find them.
 *
 * One vocabulary for HTTP outcomes, `status_class`: `2xx`, `3xx`, `4xx`, `5xx` by the response's status,
 * `none` when no response came (a timeout, a reset, a refused connection). 429s are 4xx here and are
 * counted on their own in erpsync_rate_limited_total.
 */
export function statusClass(status: number): string {
  if (status === 0) return 'none';
  return `${Math.floor(status / 100)}xx`;
}
export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx', 'none'] as const;

/** The results of a config reload (app/reload-config.ts), the `result` label of erpsync_config_reload_total. */
export const CONFIG_RELOAD_RESULTS = ['ok', 'refused', 'failed'] as const;
export type ConfigReloadResult = (typeof CONFIG_RELOAD_RESULTS)[number];

/**
 * prom-client's gauges of handles, requests and resources in use are named `*_total`, which promtool
 * (rightly) refuses for a gauge: `promtool check metrics` must pass on our /metrics, and the per-type
 * gauges without the suffix carry the same information.
 */
const NOT_EXPORTED = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

export function createMetrics(registry = new Registry()) {
  collectDefaultMetrics({ register: registry });
  for (const name of NOT_EXPORTED) registry.removeSingleMetric(name);
  const makers = metricMakers(registry);
  // Registered in this order, which is the order of /metrics.
  return {
    registry,
    ...recordMetrics(makers),
    ...httpMetrics(makers),
    ...jobMetrics(makers),
    ...availabilityMetrics(makers),
    ...progressMetrics(makers),
    ...processMetrics(makers),
    ...configMetrics(makers),
    ...deploymentMetrics(makers),
    ...webhookMetrics(makers),
    ...agentMetrics(makers),
    ...credentialMetrics(makers),
    ...accessMetrics(makers),
  };
}

/** Where a credential is checked on the worker's HTTP port (src/http/credential-guard.ts), the `route` label. */
export const CREDENTIAL_ROUTES = ['api', 'queue-ui', 'console-sign-in', 'agent'] as const;
export type CredentialRoute = (typeof CREDENTIAL_ROUTES)[number];

/** Wrong credentials presented to the API, the queue UI and the console's sign-in. */
function credentialMetrics({ c }: MetricMakers) {
  return {
    credentialsRefused: c(
      'erpsync_http_credentials_refused_total',
      'Wrong tokens presented on the HTTP port, by route (api, queue-ui, console-sign-in, agent) and outcome (refused: 401; limited: 429, the address or every address together past the limit)',
      ['route', 'outcome'] as const,
    ),
  };
}

/** Requests refused before they could act (src/pipeline/refusal-log.ts): counted here whether or not the refusals' stream kept them. */
function accessMetrics({ c }: MetricMakers) {
  return {
    apiRefusals: c(
      'erpsync_api_refusals_total',
      'API requests refused for a role too low (reason=role) and console sign-ins with an unknown token (reason=sign-in); kept=false: past the per-caller share of the refusals log, counted only',
      ['reason', 'kept'] as const,
    ),
  };
}

/** What a webhook result is (src/webhooks/webhook-listener.ts). */
export const WEBHOOK_RESULTS = ['accepted', 'bad_signature', 'unrouted', 'malformed', 'duplicate'] as const;

/** Vendor webhooks: deliveries by outcome, and changes the safety-net pull found that no delivery announced. */
function webhookMetrics({ c, g }: MetricMakers) {
  return {
    webhookDeliveries: c(
      'erpsync_webhook_deliveries_total',
      'Webhook deliveries received, by vendor and result (accepted, bad_signature, unrouted, malformed, duplicate, overloaded)',
      ['system', 'result'] as const,
    ),
    webhookMissed: c(
      'erpsync_webhook_missed_total',
      'Changes a safety-net pull found that no webhook delivery had announced',
      ['connection'] as const,
    ),
    webhookLastDelivery: g(
      'erpsync_webhook_last_delivery_timestamp_seconds',
      'When this process last accepted a webhook delivery for the connection',
      ['connection'] as const,
    ),
  };
}

/** Agents beside a source (Tally's agent mode): when each last pushed, and how far behind it is. */
function agentMetrics({ g }: MetricMakers) {
  return {
    agentLastContactAge: g(
      'erpsync_agent_last_contact_age_seconds',
      "Seconds since the connection's agent last pushed a batch or a heartbeat (+Inf: never); set at scrape",
      ['connection'] as const,
    ),
    agentBacklog: g(
      'erpsync_agent_backlog',
      'AlterIDs the agent has seen in Tally and the worker has not yet acknowledged, as the agent last said',
      ['connection'] as const,
    ),
  };
}

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Counters, gauges and histograms registered in `registry`, with their label names typed. */
function metricMakers(registry: Registry) {
  return {
    registry,
    c: <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
      new Counter({ name, help, labelNames: [...labelNames], registers: [registry] }),
    g: <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
      new Gauge({ name, help, labelNames: [...labelNames], registers: [registry] }),
    h: <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) =>
      new Histogram({ name, help, labelNames: [...labelNames], buckets, registers: [registry] }),
  };
}
type MetricMakers = ReturnType<typeof metricMakers>;

/** Records through the pipeline: read, mapped, quarantined, enqueued, written, skipped. */
function recordMetrics({ c }: MetricMakers) {
  return {
    recordsPulled: c('erpsync_records_pulled_total', 'Records read from the source', ['connection', 'entity'] as const),
    recordsMapped: c('erpsync_records_mapped_total', 'Records mapped to a valid billing body', [
      'connection',
      'entity',
    ] as const),
    recordsQuarantined: c('erpsync_records_quarantined_total', 'Records put in quarantine, by reason code', [
      'connection',
      'entity',
      'reason',
    ] as const),
    recordsEnqueued: c('erpsync_records_enqueued_total', 'Records enqueued for upsert', [
      'connection',
      'entity',
    ] as const),
    recordsUpserted: c('erpsync_records_upserted_total', 'Records written to billing', [
      'connection',
      'entity',
    ] as const),
    recordsSkipped: c(
      'erpsync_records_skipped_total',
      'Records not written: unchanged content or an older source version',
      ['connection', 'entity', 'reason'] as const,
    ),
  };
}

/** HTTP calls to billing and the vendors, and the 429s they answered. */
function httpMetrics({ c, h }: MetricMakers) {
  return {
    billingRequests: c('erpsync_billing_requests_total', 'Billing HTTP requests by endpoint and status class', [
      'endpoint',
      'status_class',
    ] as const),
    billingRequestDuration: h(
      'erpsync_billing_request_duration_seconds',
      'Billing HTTP request duration',
      ['endpoint'] as const,
      HTTP_BUCKETS,
    ),
    vendorRequests: c('erpsync_vendor_requests_total', 'ERP HTTP requests by endpoint and status class', [
      'connection',
      'endpoint',
      'status_class',
    ] as const),
    vendorRequestDuration: h(
      'erpsync_vendor_request_duration_seconds',
      'ERP HTTP request duration',
      ['connection', 'endpoint'] as const,
      HTTP_BUCKETS,
    ),
    rateLimited: c('erpsync_rate_limited_total', '429s received, by target (billing or a connection)', [
      'target',
    ] as const),
  };
}

/** Jobs and the records they carry. */
function jobMetrics({ c, g, h }: MetricMakers) {
  return {
    jobDuration: h(
      'erpsync_job_duration_seconds',
      'Job processing time',
      ['queue', 'result'] as const,
      [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
    ),
    changeToBilling: h(
      'erpsync_change_to_billing_seconds',
      "Freshness: from the source's modification of a version to billing's 2xx for it, by how it came (webhook, poll, repair)",
      ['connection', 'entity', 'path'] as const,
      [0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 21600],
    ),
    recordsRecovered: c(
      'erpsync_records_recovered_total',
      'In-flight records whose upsert job was gone or failed unaccounted, found by the sweep',
      ['connection', 'entity', 'action'] as const,
    ),
    inFlightRecords: g(
      'erpsync_in_flight_records',
      'Records enqueued for upsert and not yet written, skipped or quarantined',
      ['connection'] as const,
    ),
  };
}

/** What is up, parked, paused or deferred, and the leases that keep jobs' claims. */
function availabilityMetrics({ c, g }: MetricMakers) {
  return {
    billingUp: g(
      'erpsync_billing_up',
      '0 while billing is considered down (consecutive 5xx or network failures; upserts paused), else 1',
      [] as const,
    ),
    billingDownSince: g(
      'erpsync_billing_down_since_timestamp_seconds',
      'When the current billing outage began (0 when billing is up)',
      [] as const,
    ),
    vendorUp: g('erpsync_vendor_up', '0 while a connection is parked for a vendor outage, else 1', [
      'connection',
    ] as const),
    jobsDeferred: c(
      'erpsync_jobs_deferred_total',
      'Jobs put back in the queue without using an attempt, by why: park (vendor day or outage), quota (next vendor slot), connection-slots (the connection has its jobs running)',
      ['queue', 'reason'] as const,
    ),
    leaseRenewalsFailed: c(
      'erpsync_lease_renewals_failed_total',
      'Renewals of a lease (job-slot, pull-lock, record-locks) that failed or found the lease lost; retried at the next tick',
      ['kind'] as const,
    ),
    connectionCredentialsOk: g(
      'erpsync_connection_credentials_ok',
      "0 while the vendor refuses the connection's refresh token (re-authorisation needed; the connection is parked and rechecked), else 1",
      ['connection'] as const,
    ),
    connectionPaused: g(
      'erpsync_connection_paused',
      '1 while an operator has paused the connection (its jobs are held), else 0',
      ['connection'] as const,
    ),
  };
}

/** How far each queue, stream, vendor quota and reconcile has got. */
function progressMetrics({ c, g }: MetricMakers) {
  return {
    jobsStalled: c('erpsync_jobs_stalled_total', 'Jobs whose lock expired and were taken back', ['queue'] as const),
    queueJobs: g('erpsync_queue_jobs', 'Jobs per queue and state', ['queue', 'state'] as const),
    checkpointLag: g('erpsync_checkpoint_lag_seconds', 'Now minus the checkpoint of a (connection, entity)', [
      'connection',
      'entity',
    ] as const),
    lastSuccess: g('erpsync_last_success_timestamp_seconds', 'When a pull of (connection, entity) last completed', [
      'connection',
      'entity',
    ] as const),
    pullInterval: g(
      'erpsync_pull_interval_seconds',
      'Configured pull schedule of (connection, entity); staleness alerts count in these',
      ['connection', 'entity'] as const,
    ),
    pullProgressRecords: g(
      'erpsync_pull_progress_records',
      'Records read so far by the long read (first sync, backfill window, repair) of (connection, entity) this process runs now',
      ['connection', 'entity'] as const,
    ),
    pullProgressTotal: g(
      'erpsync_pull_progress_total_records',
      "Records that long read will hand out: the vendor's announced total, else the count at the source (an estimate); absent when neither is known",
      ['connection', 'entity'] as const,
    ),
    pullProgressSecondsLeft: g(
      'erpsync_pull_progress_seconds_left',
      'Time left of that long read at its pace so far, against its total; absent without a total',
      ['connection', 'entity'] as const,
    ),
    quarantineSize: g('erpsync_quarantine_records', 'Records currently in quarantine', ['connection'] as const),
    recordsHeld: g('erpsync_records_held', 'Records held for review before write, by the rule that held them', [
      'connection',
      'rule',
    ] as const),
    vendorQuotaRemaining: g('erpsync_vendor_quota_remaining', 'Vendor requests left in the window', [
      'connection',
      'window',
    ] as const),
    vendorQuotaUsed: g(
      'erpsync_vendor_quota_used',
      "Vendor calls counted by this deployment in the rolling window (minute: last 60 s, day: last 24 h), raised to what the vendor reports; month: an app's calls this calendar month (UTC), by app, every connection of it together",
      ['connection', 'window', 'app'] as const,
    ),
    reconcileDrift: g('erpsync_reconcile_drift_records', 'Drifted records found by the last reconcile, by kind', [
      'connection',
      'kind',
    ] as const),
    reconcileLastRun: g(
      'erpsync_reconcile_last_run_timestamp_seconds',
      'When the last reconcile of a connection finished',
      ['connection'] as const,
    ),
  };
}

/** The process's Redis and workers. */
function processMetrics({ g }: MetricMakers) {
  return {
    redisEvictionPolicyOk: g(
      'erpsync_redis_eviction_policy_ok',
      '1 when Redis maxmemory-policy is noeviction',
      [] as const,
    ),
    redisMemoryUsedRatio: g(
      'erpsync_redis_memory_used_ratio',
      'used_memory / maxmemory (0 when maxmemory is unset)',
      [] as const,
    ),
    workersRunning: g('erpsync_workers_running', 'Workers running in this process, by queue', ['queue'] as const),
  };
}

/** Config loads and reloads. */
function configMetrics({ c, g }: MetricMakers) {
  return {
    configReloads: c(
      'erpsync_config_reload_total',
      'Config reloads (SIGHUP) by result: ok, refused (invalid; the running config kept), failed (schedulers not updated)',
      ['result'] as const,
    ),
    configLastReloadSuccess: g(
      'erpsync_config_last_reload_success_timestamp_seconds',
      'When the running config was last loaded (at start or by a reload)',
      [] as const,
    ),
    configLastReloadSuccessful: g(
      'erpsync_config_last_reload_successful',
      '1 when the last config load (start or reload) succeeded, else 0',
      [] as const,
    ),
    configRestartRequired: g(
      'erpsync_config_restart_required',
      '1 when a reloaded config changed keys that take effect only after a restart',
      [] as const,
    ),
  };
}

/** What the deployment runs on and with. */
function deploymentMetrics({ g, registry }: MetricMakers) {
  let reportedCollections = 0;
  return {
    redisMaxmemoryBytes: g(
      'erpsync_redis_maxmemory_bytes',
      'Redis maxmemory (0 when unset: the memory alerts then cannot fire)',
      [] as const,
    ),
    connectionInfo: g(
      'erpsync_connection_info',
      'Always 1: each configured connection with its ERP system and the billing company it writes to (join other series on connection)',
      ['connection', 'system', 'billing_company'] as const,
    ),
    memoryForcedCollections: new Counter({
      name: 'erpsync_memory_forced_collections_total',
      help: 'Full collections run because the RSS passed ERP_SYNC_RSS_MARK_MB (they give free heap pages back to the system)',
      registers: [registry],
      // Counted by the process-wide guard (it starts before the metrics exist): brought up to date on each scrape.
      collect() {
        const n = forcedCollections();
        if (n > reportedCollections) this.inc(n - reportedCollections);
        reportedCollections = n;
      },
    }),
    buildInfo: g('erpsync_build_info', 'Always 1: the running version, commit and Node.js version as labels', [
      'version',
      'commit',
      'node',
    ] as const),
  };
}
export type Metrics = ReturnType<typeof createMetrics>;

/**
 * Known label sets start at 0, so a panel or an alert has a series before the first event (a stall, a
 * 429, a recovered record) instead of "No data", and `increase()` sees the first one.
 */
export function initialiseSeries(
  m: Metrics,
  known: {
    queues: readonly string[];
    connections: ReadonlyArray<{ id: string; entities: readonly string[]; system?: string; billingCompany?: string }>;
    build: { version: string; commit: string };
  },
): void {
  m.buildInfo.set({ version: known.build.version, commit: known.build.commit, node: process.version }, 1);
  for (const queue of known.queues) m.jobsStalled.inc({ queue }, 0);
  m.rateLimited.inc({ target: 'billing' }, 0);
  for (const result of CONFIG_RELOAD_RESULTS) m.configReloads.inc({ result }, 0);
  for (const kind of LEASE_KINDS) m.leaseRenewalsFailed.inc({ kind }, 0);
  for (const route of CREDENTIAL_ROUTES)
    for (const outcome of ['refused', 'limited']) m.credentialsRefused.inc({ route, outcome }, 0);
  for (const reason of REFUSAL_REASONS)
    for (const kept of ['true', 'false'] as const) m.apiRefusals.inc({ reason, kept }, 0);
  for (const c of known.connections) {
    if (c.system && c.billingCompany)
      m.connectionInfo.set({ connection: c.id, system: c.system, billing_company: c.billingCompany }, 1);
    m.rateLimited.inc({ target: c.id }, 0);
    m.connectionCredentialsOk.set({ connection: c.id }, 1);
    // From 0, so the first miss a safety-net pull finds shows in increase() (the webhook alert reads it).
    m.webhookMissed.inc({ connection: c.id }, 0);
    for (const entity of c.entities) {
      const labels = { connection: c.id, entity };
      for (const counter of [m.recordsPulled, m.recordsMapped, m.recordsEnqueued, m.recordsUpserted])
        counter.inc(labels, 0);
      for (const action of ['re-enqueued', 'quarantined']) m.recordsRecovered.inc({ ...labels, action }, 0);
      for (const reason of QUARANTINE_REASON_CODES) m.recordsQuarantined.inc({ ...labels, reason }, 0);
    }
  }
  for (const queue of known.queues) for (const result of ['error', 'invalid']) m.jobDuration.zero({ queue, result });
}
