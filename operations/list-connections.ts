import { webhooksView, type WebhooksView } from '../src/webhooks/webhook-status.js';
import { connectionBudget } from '../jobs/admission/connection-budget.js';
import type { Runtime } from '../jobs/runtime.js';
import { credentialsStatus, type CredentialsStatus } from '../src/auth/credentials-status.js';
import type { ConnectionConfig } from '../src/config.js';
import type { SystemName } from '../src/connector/types.js';
import type { QuotaProjection } from '../src/pipeline/quota-projection.js';
import { projectConnectionCalls } from './project-calls.js';
import { agentView, type AgentView } from './agent-view.js';
import { streamProgress, type StreamProgress } from './stream-progress.js';
import type { FreshnessView } from '../src/pipeline/freshness-samples.js';

export type ListRuntime = Pick<
  Runtime,
  | 'config'
  | 'connection'
  | 'connectionControl'
  | 'syncStatus'
  | 'quotas'
  | 'outages'
  | 'tokens'
  | 'webhookHealth'
  | 'queues'
  | 'agentInbox'
  | 'agentCredentials'
> &
  Pick<Runtime, 'freshness'>;

/** Whether a connection runs, and if not the first reason why (an operator's pause comes first). */
export type ConnectionRunState = 'paused' | 'reauthorise' | 'parked' | 'vendor-down' | 'running';

/** One stream's incremental pulls: the last one, the last successful one, and how far behind that is. */
export interface StreamRuns {
  entity: string;
  /** When the last incremental pull ended, successfully or not (an error is kept until the next success). */
  lastRun: string | null;
  lastSuccess: string | null;
  lagSeconds: number | null;
  lastError: { at: string | null; message: string } | null;
}

export interface ConnectionSummary {
  id: string;
  system: SystemName;
  /** The billing company it writes to (a name, or `key-<fingerprint>`: never a key). */
  company: string;
  state: ConnectionRunState;
  paused: { since: string | null; by: string | null; reason: string | null } | null;
  /** Jobs held while paused and not yet released (after a resume: run it again). */
  heldJobs: number;
  parkedUntil: string | null;
  /** Whether the vendor accepts the connection's refresh token (not: re-authorise it; the connection is parked meanwhile). */
  credentials: CredentialsStatus;
  vendor: { up: true } | { up: false; downSince: string | null; lastError: string };
  schedule: { everySeconds: number; entities: string[] };
  /** Its webhooks (null: none configured): whether deliveries carry its changes, or it polls on the short schedule and why. */
  webhooks: WebhooksView | null;
  /** Change → billing over the last hour, from the samples every process shares. */
  freshness: FreshnessView;
  entities: StreamRuns[];
  /** Its agent beside the source (Tally in agent mode): last contact, version, backlog; null for the others. */
  agent: AgentView | null;
  /** The pulls running now: a first sync, a backfill window or a repair with records done, rate and (where known) time left. */
  progress: StreamProgress[];
  /**
   * `used` as the quota store reports it (its fields may grow); `limits` the connection's budget;
   * `projection` the calls a day its schedule needs against its day cap and its app's month (null: the
   * connector declares no call costs).
   */
  quota: {
    used: Awaited<ReturnType<ListRuntime['quotas']['usage']>>;
    limits: ReturnType<typeof connectionBudget>;
    projection: QuotaProjection | null;
  };
}

export interface ConnectionsView {
  connections: ConnectionSummary[];
}

const iso = (ms: number | undefined): string | null => (ms ? new Date(ms).toISOString() : null);

/**
 * Each configured connection (or those of `ids`, in config order) as `erp-sync connections` and the API
 * show it: whether it runs (paused by an operator, its credentials refused by the vendor, parked on its
 * vendor quota, its vendor down), its billing company, its schedule, each stream's last run, last success
 * and lag (now − the last successful pull), and its vendor quota used against its limits.
 */
export async function collectConnections(
  rt: ListRuntime,
  now = Date.now(),
  ids?: readonly string[],
  sees?: (id: string) => boolean,
): Promise<ConnectionsView> {
  const connections: ConnectionSummary[] = [];
  for (const c of rt.config.connections)
    if (!ids || ids.includes(c.id)) connections.push(await connectionSummary(rt, c, now, sees));
  return { connections };
}

async function connectionSummary(
  rt: ListRuntime,
  c: ConnectionConfig,
  now: number,
  sees?: (id: string) => boolean,
): Promise<ConnectionSummary> {
  const control = await rt.connectionControl.state(c.id);
  const parked = await rt.quotas.parkedUntil(c.id);
  const outage = await rt.outages.get(c.id);
  const { lastSuccess, lastError } = await rt.syncStatus.read(c.id);
  const credentials = await credentialsStatus(rt.tokens, rt.connection(c.id));
  const state: ConnectionRunState =
    control.state === 'paused'
      ? 'paused'
      : !credentials.ok
        ? 'reauthorise'
        : parked
          ? 'parked'
          : outage
            ? 'vendor-down'
            : 'running';
  return {
    id: c.id,
    system: c.system,
    company: rt.connection(c.id).billing.company,
    state,
    paused:
      control.state === 'paused'
        ? { since: iso(control.since), by: control.by ?? null, reason: control.reason ?? null }
        : null,
    heldJobs: await rt.connectionControl.heldCount(c.id),
    parkedUntil: iso(parked),
    credentials,
    vendor: outage ? { up: false, downSince: iso(outage.since), lastError: outage.message } : { up: true },
    schedule: { everySeconds: c.schedule.everySeconds, entities: [...c.entities] },
    webhooks: await webhooksView(rt.webhookHealth, c),
    freshness: await rt.freshness.read(c.id, now),
    entities: c.entities.map((entity) => streamRuns(entity, lastSuccess[entity], lastError[entity], now)),
    agent: await agentView(rt, c, now),
    progress: await streamProgress(rt, c.id, (entity) => lastSuccess[entity] === undefined, now),
    quota: {
      used: await rt.quotas.usage(c.id),
      limits: connectionBudget(rt.connection(c.id)),
      projection: await projectConnectionCalls(rt, c.id, { now, ...(sees ? { sees } : {}) }),
    },
  };
}

function streamRuns(
  entity: string,
  ok: number | undefined,
  failed: { at: number; message: string } | undefined,
  now: number,
): StreamRuns {
  return {
    entity,
    lastRun: iso(failed ? Math.max(failed.at, ok ?? 0) : ok),
    lastSuccess: iso(ok),
    lagSeconds: ok ? Math.max(0, Math.round((now - ok) / 1000)) : null,
    lastError: failed ? { at: iso(failed.at), message: failed.message } : null,
  };
}
