import { webhooksView, type WebhooksView } from '../src/webhooks/webhook-status.js';
import { agentView, type AgentView } from './agent-view.js';
import {
  billingCompanyGuardOf,
  type BillingCompanyGuard,
  type BillingCompanyStatus,
} from '../jobs/admission/billing-company-guard.js';
import { BILLING } from '../jobs/admission/billing-outage.js';
import type { Runtime } from '../jobs/runtime.js';
import { credentialsStatus, type CredentialsStatus } from '../src/auth/credentials-status.js';
import type { ConnectionConfig } from '../src/config.js';
import type { SystemName } from '../src/connector/types.js';
import type { FreshnessView } from '../src/pipeline/freshness-samples.js';
import { streamProgress, type StreamProgress } from './stream-progress.js';

/** Up, or down since an instant with the last error (billing's outage flag, or a vendor's). */
export type Availability = { up: true } | { up: false; downSince: string | null; lastError: string };

/** One stream of a connection: where its next pull starts, how far behind it is, and how its last pulls went. */
export interface EntityStatus {
  entity: string;
  cursor: string | null;
  lagSeconds: number | null;
  lastSuccess: string | null;
  lastError: { at: string; message: string } | null;
  /** Records the ledger holds for the stream. */
  ledger: number;
}

export interface ConnectionStatus {
  id: string;
  system: SystemName;
  originSource: string;
  entities: EntityStatus[];
  /** Quarantined records by reason. */
  quarantine: Record<string, number>;
  /** Paused by an operator (`erp-sync connections pause`): its jobs are held until it is resumed. */
  paused: { since: string | null; by: string | null; reason: string | null } | null;
  parkedUntil: string | null;
  /** Whether the vendor accepts the refresh token; not: re-authorise (the connection is parked and rechecked meanwhile). */
  credentials: CredentialsStatus;
  vendor: Availability;
  quota: { minute: number; day: number; inflight: number };
  /** Records enqueued and not yet written, skipped or quarantined; and what the sweep recovered. */
  inFlight: number;
  sweep: { lastRun: string | null; recovered: number; lastRecovered: string | null };
  /** The billing company it writes to, the one its state belongs to, and whether it is refused for the difference. */
  billingCompany: BillingCompanyStatus;
  /** Its webhooks (null: none configured): deliveries carrying its changes, or back on the short schedule and why. */
  webhooks: WebhooksView | null;
  /** Its agent beside the source (Tally in agent mode): last contact, version, backlog; null for the others. */
  agent: AgentView | null;
  /** Change → billing over the last hour (p50, p99), from the samples every process shares. */
  freshness: FreshnessView;
  /** Review before write (null: not configured and nothing held): its setting and held records by rule, from the review queue's index. */
  review: { mode: string; held: Record<string, number> } | null;
  /** The pulls running now: records read, the total (announced or estimated), the rate and the time left (as the API's `progress`). */
  progress: StreamProgress[];
}

export interface ServiceStatus {
  billing: Availability;
  /** Job counts by state, per queue. */
  queues: Record<string, Record<string, number>>;
  connections: ConnectionStatus[];
}

export type StatusRuntime = Pick<
  Runtime,
  | 'queues'
  | 'config'
  | 'checkpoints'
  | 'syncStatus'
  | 'ledger'
  | 'quotas'
  | 'quarantine'
  | 'inFlight'
  | 'outages'
  | 'logger'
  | 'connection'
  | 'billingCompanies'
  | 'billingOf'
  | 'connectionControl'
  | 'tokens'
  | 'webhookHealth'
  | 'freshness'
  | 'review'
  | 'agentInbox'
  | 'agentCredentials'
>;

const JOB_STATES = ['wait', 'prioritized', 'active', 'delayed', 'failed', 'completed', 'waiting-children'] as const;

const iso = (ms: number | undefined) => (ms ? new Date(ms).toISOString() : null);

/** Queues, billing, and every configured connection's streams, quarantine, pause, park, credentials and quota. */
export async function collectStatus(rt: StatusRuntime): Promise<ServiceStatus> {
  const queues: ServiceStatus['queues'] = {};
  for (const q of Object.values(rt.queues)) queues[q.name] = await q.getJobCounts(...JOB_STATES);
  const billing = availability(await rt.outages.get(BILLING));
  const companies = billingCompanyGuardOf(rt);
  const connections: ConnectionStatus[] = [];
  for (const c of rt.config.connections) connections.push(await connectionStatus(rt, c, companies));
  return { billing, queues, connections };
}

function availability(outage: { since: number; message: string } | undefined): Availability {
  return outage ? { up: false, downSince: iso(outage.since), lastError: outage.message } : { up: true };
}

async function connectionStatus(
  rt: StatusRuntime,
  c: ConnectionConfig,
  companies: BillingCompanyGuard,
): Promise<ConnectionStatus> {
  const entities = await entityStatuses(rt, c);
  const parked = await rt.quotas.parkedUntil(c.id);
  const vendorOutage = await rt.outages.get(c.id);
  const sweep = await rt.syncStatus.readSweep(c.id);
  const control = await rt.connectionControl.state(c.id);
  return {
    id: c.id,
    system: c.system,
    originSource: c.originSource,
    entities,
    quarantine: await rt.quarantine.countByReason(c.id),
    paused:
      control.state === 'paused'
        ? { since: iso(control.since), by: control.by ?? null, reason: control.reason ?? null }
        : null,
    parkedUntil: parked ? new Date(parked).toISOString() : null,
    credentials: await credentialsStatus(rt.tokens, rt.connection(c.id)),
    vendor: availability(vendorOutage),
    quota: await rt.quotas.usage(c.id),
    inFlight: await rt.inFlight.count(c.id),
    sweep: { lastRun: iso(sweep.lastRun), recovered: sweep.recovered, lastRecovered: iso(sweep.lastRecovered) },
    billingCompany: await companies.status(c.id),
    webhooks: await webhooksView(rt.webhookHealth, c),
    freshness: await rt.freshness.read(c.id),
    review: await reviewStatus(rt, c),
    progress: await streamProgress(rt, c.id, (e) => entities.find((s) => s.entity === e)?.lastSuccess === null),
    agent: await agentView(rt, c, Date.now()),
  };
}

async function reviewStatus(rt: StatusRuntime, c: ConnectionConfig): Promise<ConnectionStatus['review']> {
  const held = await rt.review.countByRule(c.id);
  const mode = typeof c.review === 'string' ? c.review : 'rules';
  return mode === 'none' && !Object.keys(held).length ? null : { mode, held };
}

async function entityStatuses(rt: StatusRuntime, c: ConnectionConfig): Promise<EntityStatus[]> {
  const checkpoints = await rt.checkpoints.all(c.id);
  const { lastSuccess: last, lastError: errors } = await rt.syncStatus.read(c.id);
  const out: EntityStatus[] = [];
  for (const e of c.entities) {
    const cp = checkpoints[e] as { state: { cursor: string | null }; savedAt: number } | undefined;
    const cursor = cp?.state.cursor ?? null;
    const error = errors[e];
    out.push({
      entity: e,
      cursor,
      lagSeconds: cursor ? Math.round((Date.now() - Date.parse(cursor)) / 1000) : null,
      lastSuccess: last[e] ? new Date(last[e]).toISOString() : null,
      lastError: error ? { at: new Date(error.at).toISOString(), message: error.message } : null,
      ledger: await rt.ledger.count(c.id, e),
    });
  }
  return out;
}
