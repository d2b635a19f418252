import type { ConnectionConfig } from '../src/config.js';
import type { EntityName } from '../src/connector/entities.js';
import type { QuotaProfile } from '../src/connector/quota-profile.js';
import {
  callsPerDay,
  estimateFirstSync,
  projectQuota,
  type CallsPerDay,
  type FirstSyncEstimate,
  type QuotaProjection,
} from '../src/pipeline/quota-projection.js';
import { connectionBudget } from '../jobs/admission/connection-budget.js';
import type { ConnectionHandle, Runtime } from '../jobs/runtime.js';

type ProjectRuntime = Pick<Runtime, 'config' | 'connection' | 'quotas'>;

/** A connection's profile, or undefined when its connector declares none. */
function profileOf(handle: Pick<ConnectionHandle, 'connector'>): QuotaProfile<any> | undefined {
  return handle.connector.quotaProfile;
}

/** Calls a day of one connection at a schedule (`everySeconds`), lists of every stream plus its lookups. */
function scheduleCalls(c: ConnectionConfig, profile: QuotaProfile<any>, everySeconds: number, lookups?: unknown) {
  return callsPerDay({
    listCallsPerRun: c.entities.reduce((n, e) => n + profile.listCallsPerRun(e), 0),
    everySeconds,
    lookupCalls: profile.lookupCalls(lookups),
    lookupsCacheSeconds: profile.lookupsCacheSeconds(c.settings),
  });
}

/** What a connection's pulls cost a day as they run: at the safety net's pace with webhooks, else polling. */
function steadyCalls(c: ConnectionConfig, profile: QuotaProfile<any>, lookups?: unknown): CallsPerDay {
  return scheduleCalls(c, profile, c.webhooks ? c.schedule.withWebhooksEverySeconds : c.schedule.everySeconds, lookups);
}

/**
 * A connection's projected calls a day at its schedule (lists, lookups, the safety net when it has
 * webhooks) against its day cap and, where its vendor bills an app-wide month (QuickBooks), that month's
 * budget shared with every connection of the same app. `lookups`, when the caller read them, make the
 * lookups' cost exact (Zoho: one call per tax group). Null when the connector declares no call costs.
 */
export async function projectConnectionCalls(
  rt: ProjectRuntime,
  id: string,
  options: {
    lookups?: unknown;
    now?: number;
    /** The connections the reader may see (a company-limited API token): an app month shared with others is left out. */
    sees?: (id: string) => boolean;
  } = {},
): Promise<QuotaProjection | null> {
  const handle = rt.connection(id);
  const profile = profileOf(handle);
  if (!profile) return null;
  const c = handle.config;
  const now = options.now ?? Date.now();
  const polling = scheduleCalls(c, profile, c.schedule.everySeconds, options.lookups);
  const safetyNet = c.webhooks
    ? scheduleCalls(c, profile, c.schedule.withWebhooksEverySeconds, options.lookups)
    : undefined;
  const app = profile.appMonthlyBudget?.(c.settings);
  let month: Parameters<typeof projectQuota>[0]['month'];
  const sharing = app
    ? rt.config.connections.filter(
        (o) => o.system === c.system && profile.appMonthlyBudget?.(o.settings)?.app === app.app,
      )
    : [];
  // The app's month counts every connection of the app: other companies' calls when one of them is
  // another company's, which a reader limited to its own companies is not shown.
  if (app && sharing.every((o) => options.sees?.(o.id) ?? true)) {
    const appPerDay = sharing.reduce(
      (n, o) => n + (o.id === c.id ? (safetyNet ?? polling) : steadyCalls(o, profile)).total,
      0,
    );
    month = { ...app, used: await rt.quotas.monthUsage(app.app), connections: sharing.length, appPerDay };
  }
  return projectQuota({ polling, safetyNet, dayCap: connectionBudget(handle).perDay, month, now });
}

export interface FirstSyncView extends FirstSyncEstimate {
  entities: Array<{ entity: EntityName; records: number; calls: number }>;
  /** Calls the counting itself spent (a count query, or probes of list pages). */
  countCalls: number;
}

/**
 * How long a first sync of `entities` (default: the connection's) takes at its quota: each stream's
 * records counted at the source (cheaply: a count, or probes of pages), the calls they cost as the
 * connector reads them, paced by the day cap (or the minute limit, or the app's month). Null when the
 * connector declares no call costs.
 */
export async function estimateConnectionFirstSync(
  rt: ProjectRuntime & Pick<Runtime, 'logger'>,
  id: string,
  options: { entities?: readonly EntityName[]; signal?: AbortSignal; now?: number } = {},
): Promise<FirstSyncView | null> {
  const handle = rt.connection(id);
  const profile = profileOf(handle);
  if (!profile) return null;
  const c = handle.config;
  const now = options.now ?? Date.now();
  const ctx = handle.readContext({
    logger: rt.logger.child({ connection: id }),
    signal: options.signal,
    until: new Date(now),
  });
  const entities: FirstSyncView['entities'] = [];
  let countCalls = 0;
  for (const entity of options.entities ?? c.entities) {
    const counted = await profile.countRecords(ctx, entity);
    countCalls += counted.calls;
    entities.push({
      entity,
      records: counted.records,
      calls: profile.firstSyncCalls(entity, counted.records, c.settings),
    });
  }
  const budget = connectionBudget(handle);
  const app = profile.appMonthlyBudget?.(c.settings);
  const estimate = estimateFirstSync({
    records: entities.reduce((n, e) => n + e.records, 0),
    calls: entities.reduce((n, e) => n + e.calls, 0),
    dayCap: budget.perDay,
    perMinute: budget.perMinute,
    month: app ? { budget: app.budget, used: await rt.quotas.monthUsage(app.app), now } : undefined,
  });
  return { ...estimate, entities, countCalls };
}
