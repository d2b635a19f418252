import { AUDITED } from '../operations/audited-actions.js';
import { z } from 'zod';
import { checkConnection } from '../operations/check-connection.js';
import { collectConnections } from '../operations/list-connections.js';
import { pauseConnection } from '../operations/pause-connection.js';
import { resumeConnection } from '../operations/resume-connection.js';
import { syncNow, syncNowEntities } from '../operations/sync-now.js';
import type { ApiContext, ApiDeps } from './context.js';
import { ApiError, TooManyRequests } from './errors.js';
import { routesOn } from './route.js';
import { ConnectionId, EntityParam, IsoInstant, QuotaProjectionSchema } from './schemas.js';

/** What this module's handlers use of the runtime, and nothing else. */
export type ConnectionRouteDeps = Pick<ApiDeps, 'windowLimiter' | 'storedConnections'> &
  Parameters<typeof collectConnections>[0] &
  Parameters<typeof pauseConnection>[0] &
  Parameters<typeof resumeConnection>[0] &
  Parameters<typeof syncNow>[0] &
  Parameters<typeof checkConnection>[0];

const defineRoute = routesOn<ConnectionRouteDeps>();

const Params = z.object({ id: ConnectionId });

/** Checks of one connection through the API per window: each costs about 9 vendor calls. */
export const CHECKS_PER_CONNECTION = 4;
export const CHECKS_WINDOW_SECONDS = 300;

/** Counts a check of `connection` (whoever asks): 429 beyond CHECKS_PER_CONNECTION in the window. */
async function takeCheck(ctx: ApiContext<ConnectionRouteDeps>, connection: string): Promise<void> {
  const limiter = ctx.rt.windowLimiter('connection-check', CHECKS_PER_CONNECTION, CHECKS_WINDOW_SECONDS);
  const take = await limiter.take(connection);
  if (!take.allowed)
    throw new TooManyRequests(
      `${connection} was checked ${CHECKS_PER_CONNECTION} times in ${CHECKS_WINDOW_SECONDS / 60} minutes (about 9 vendor calls each): try again in ${take.retryAfterSeconds} s, or run erp-sync check`,
      take.retryAfterSeconds,
    );
}

/** Each view with where its connection is written: stored through the API (or the command line), else the YAML. */
async function withOrigin<T extends { id: string }>(ctx: ApiContext<ConnectionRouteDeps>, views: T[]) {
  const stored = new Set(
    (await ctx.rt.storedConnections.list()).filter((e) => e.removedAt === undefined).map((e) => e.id),
  );
  return views.map((v) => ({ ...v, origin: stored.has(v.id) ? ('api' as const) : ('config' as const) }));
}

const PauseView = z.object({ since: IsoInstant.nullable(), by: z.string().nullable(), reason: z.string().nullable() });

export const ConnectionView = z
  .object({
    id: z.string(),
    system: z.string(),
    origin: z
      .enum(['config', 'api'])
      .describe(
        'where it is written: the YAML config (read-only through the API), or stored through the API or the command line',
      ),
    company: z.string().describe('the billing company it writes to (a name, or key-<fingerprint>)'),
    state: z.enum(['running', 'paused', 'reauthorise', 'parked', 'vendor-down']),
    paused: PauseView.nullable(),
    heldJobs: z.number().int(),
    parkedUntil: IsoInstant.nullable(),
    credentials: z.object({ ok: z.boolean(), refusedAt: IsoInstant.nullable(), failure: z.string().nullable() }),
    vendor: z.object({
      up: z.boolean(),
      downSince: IsoInstant.nullable().optional(),
      lastError: z.string().optional(),
    }),
    schedule: z.object({ everySeconds: z.number().int(), entities: z.array(z.string()) }),
    webhooks: z
      .object({
        mode: z.enum(['webhooks', 'polling']),
        reason: z.string().nullable(),
        pullEverySeconds: z.number().int(),
      })
      .nullable()
      .describe('its webhooks (null: none configured): whether deliveries carry its changes, or it polls and why'),
    agent: z
      .object({
        lastContactAt: IsoInstant.nullable(),
        silentSeconds: z.number().int().nullable(),
        version: z.string().nullable(),
        backlog: z.number().int().nullable(),
        acked: z.record(z.string(), z.number().int()),
        credentialCreatedAt: IsoInstant.nullable(),
      })
      .nullable()
      .describe(
        'its agent beside the source (Tally in agent mode: last contact, version, backlog, the AlterID each stream is held up to, when its credential was made); null for a connection the worker reads itself',
      ),
    entities: z.array(
      z.object({
        entity: z.string(),
        lastRun: IsoInstant.nullable(),
        lastSuccess: IsoInstant.nullable(),
        lagSeconds: z.number().int().nullable(),
        lastError: z.object({ at: IsoInstant.nullable(), message: z.string() }).nullable(),
      }),
    ),
    progress: z
      .array(
        z.object({
          entity: z.string(),
          kind: z.enum(['first-sync', 'backfill', 'repair', 'incremental']),
          jobId: z.string(),
          since: IsoInstant,
          pages: z.number().int(),
          pulled: z.number().int(),
          enqueued: z.number().int(),
          recordsPerSecond: z.number().nullable(),
          window: z.object({ from: z.string(), to: z.string() }).nullable(),
          total: z
            .object({ records: z.number().int(), source: z.enum(['vendor', 'estimate']) })
            .nullable()
            .describe(
              "records the read will hand out: the vendor's announced total, else the count at the source the quota projection's estimate makes (source: estimate); null until known",
            ),
          windows: z.object({ done: z.number().int(), total: z.number().int() }).nullable(),
          secondsLeft: z.number().int().nullable(),
        }),
      )
      .describe(
        'the pulls running now (first sync, backfill window, repair, incremental): records read and enqueued, pages, rate, the total where known (announced or estimated); a backfill its windows done of all; the time left at the pace so far',
      ),
    freshness: z
      .object({
        p50Seconds: z.number().nullable(),
        p99Seconds: z.number().nullable(),
        samples: z.number().int(),
        windowSeconds: z.number().int(),
        alertAboveSeconds: z
          .number()
          .describe('the p99 above which the alert ErpSyncChangeToBillingSlow fires (changes by webhook)'),
      })
      .describe("change in the ERP → billing's 2xx, seconds, over the last hour (every worker's writes); null: none"),
    quota: z.object({
      used: z.record(z.string(), z.number()).describe('vendor calls: last minute, last 24 h, in flight now'),
      limits: z.object({ perMinute: z.number(), perDay: z.number().optional(), concurrency: z.number() }),
      projection: QuotaProjectionSchema.nullable().describe(
        "calls a day the schedule needs against the day cap and the app month (null: the connector declares no call costs); for a company-limited token, `month` is null when the app is shared with another company's connection (its count is every connection's)",
      ),
    }),
  })
  .meta({ id: 'Connection' });

const Pause = z.object({ since: IsoInstant, by: z.string().optional(), reason: z.string().optional() });
const iso = (p: { since: number; by?: string; reason?: string }) => ({ ...p, since: new Date(p.since).toISOString() });
const PullNow = z.object({ entity: z.string(), jobId: z.string() });

export const connectionRoutes = [
  defineRoute({
    method: 'get',
    path: '/connections',
    summary: 'Each connection the token may see: state, schedule, per-entity last run and lag, vendor quota',
    role: 'viewer',
    response: z.object({ connections: z.array(ConnectionView) }),
    handle: async (ctx) => {
      const ids = ctx.visibleConnections().map((c) => c.id);
      const { connections } = await collectConnections(ctx.rt, Date.now(), ids, ctx.sees);
      return { body: { connections: await withOrigin(ctx, connections) } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/connections/{id}',
    summary: 'One connection',
    role: 'viewer',
    params: Params,
    response: ConnectionView,
    handle: async (ctx, { params }) => {
      ctx.connection(params.id);
      const { connections } = await collectConnections(ctx.rt, Date.now(), [params.id], ctx.sees);
      return { body: (await withOrigin(ctx, connections))[0]! };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/connections/{id}/pause',
    summary: 'Pause a connection in every worker: its jobs are held from their next start until it is resumed',
    role: 'operator',
    audit: AUDITED.pause.action,
    params: Params,
    body: z.object({ reason: z.string().trim().min(1).max(500).optional().describe('why: shown with the pause') }),
    response: z.object({ connection: z.string(), changed: z.boolean(), pause: Pause }),
    handle: async (ctx, { params, body }) => {
      ctx.connection(params.id);
      const r = await pauseConnection(ctx.rt, params.id, { by: ctx.caller.name, reason: body.reason });
      return {
        body: { connection: r.connection, changed: r.changed, pause: iso(r.pause) },
        detail: AUDITED.pause.detail(r, body.reason),
      };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/connections/{id}/resume',
    summary: 'Resume a connection: its held jobs are released and each entity is pulled once',
    role: 'operator',
    audit: AUDITED.resume.action,
    params: Params,
    response: z.object({
      connection: z.string(),
      pause: Pause.optional(),
      released: z.number().int(),
      settled: z.number().int(),
      pulls: z.array(PullNow),
    }),
    handle: async (ctx, { params }) => {
      ctx.connection(params.id);
      const { pause, ...r } = await resumeConnection(ctx.rt, params.id);
      return {
        body: { ...r, ...(pause ? { pause: iso(pause) } : {}) },
        detail: AUDITED.resume.detail({ pause, released: r.released }),
      };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/connections/{id}/sync',
    summary: 'An incremental pull of each entity (or one) now; refused (409) while the connection is paused',
    role: 'operator',
    audit: AUDITED.sync.action,
    params: Params,
    body: z.object({ entity: EntityParam.optional() }),
    status: 202,
    response: z.object({ connection: z.string(), pulls: z.array(PullNow), workers: z.enum(['running', 'none']) }),
    handle: async (ctx, { params, body }) => {
      const c = ctx.connection(params.id);
      const r = await syncNow(ctx.rt, params.id, syncNowEntities(c, body.entity));
      if (r.state === 'paused') throw new ApiError(409, 'PAUSED', AUDITED.sync.paused(params.id));
      const pulls = r.pulls.map(({ entity, jobId }) => ({ entity, jobId }));
      return {
        body: {
          connection: r.connection,
          pulls,
          workers: r.workers === 'none' ? ('none' as const) : ('running' as const),
        },
        detail: AUDITED.sync.detail(pulls),
      };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/connections/{id}/check',
    summary: 'Whether the connection can run: token, reads, base currency, quota, billing keys (as `erp-sync check`)',
    description:
      'Each check costs about 9 vendor calls: a connection may be checked 4 times in 5 minutes through the API (whoever asks); beyond, 429 with Retry-After.',
    role: 'operator',
    audit: AUDITED.check.action,
    params: Params,
    response: z.object({
      id: z.string(),
      system: z.string(),
      ok: z.boolean(),
      checks: z.array(
        z.object({
          check: z.string(),
          status: z.enum(['ok', 'failed', 'skipped']),
          detail: z.string(),
          fix: z.string().optional(),
        }),
      ),
    }),
    handle: async (ctx, { params }) => {
      ctx.connection(params.id);
      await takeCheck(ctx, params.id);
      const r = await checkConnection(ctx.rt, params.id);
      const failed = r.checks.filter((c) => c.status === 'failed').map((c) => c.check);
      return { body: r, detail: r.ok ? 'all checks passed' : `failed: ${failed.join(', ')}` };
    },
  }),
];
