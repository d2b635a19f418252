import { AUDITED } from '../operations/audited-actions.js';
import { z } from 'zod';
import { DRIFT_KINDS } from '../jobs/reconcile/drift.js';
import { listDrift } from '../operations/list-drift.js';
import { resolveDrift } from '../operations/resolve-drift.js';
import { startReconcile } from '../operations/start-reconcile.js';
import type { DriftResolution } from '../src/pipeline/reconcile-state.js';
import { API_BASE } from './openapi.js';
import { ApiError, notFound } from './errors.js';
import { routesOn } from './route.js';
import { ConnectionId, EntityParam, ErpId, IsoInstant, QueryInt } from './schemas.js';

/** What this module's handlers use of the runtime, and nothing else. */
export type ReconciliationRouteDeps = Parameters<typeof listDrift>[0] &
  Parameters<typeof startReconcile>[0] &
  Parameters<typeof resolveDrift>[0];

const defineRoute = routesOn<ReconciliationRouteDeps>();

/** A real calendar day (2026-02-30 and 2026-13-45 are not): refused here, not by billing when the job runs. */
const DateOnly = z.iso.date('a real calendar day, YYYY-MM-DD');

/** The longest window of days one request may reconcile (as `lastDays`): a wider one is several requests, or `erp-sync reconcile --history`. */
export const MAX_WINDOW_DAYS = 366;

const Resolution = z.object({ by: z.string(), at: IsoInstant, note: z.string() });

const DriftedRecord = z
  .object({
    entity: z.string(),
    erpId: z.string(),
    kinds: z.array(z.string()).describe(`drift kinds: ${DRIFT_KINDS.join(', ')}`),
    detail: z.string().optional(),
    at: IsoInstant.describe('when the reconciliation that found it ran'),
    window: z.string().describe('its window of days, from..to'),
    needsPerson: z.boolean().describe('a sync cannot fix it (reconcile with repair fixes the others)'),
    resolved: Resolution.optional(),
    lineage: z.string().describe("the record's lineage: GET this path"),
  })
  .meta({ id: 'DriftedRecord' });

const Report = z
  .object({
    connection: z.string(),
    lastRun: z
      .object({ at: IsoInstant, from: z.string(), to: z.string(), counts: z.record(z.string(), z.number()) })
      .nullable()
      .describe('the last reconciliation: its window and drift counts by kind'),
    items: z.array(DriftedRecord).describe('drifted records not resolved, by the time they were found'),
    truncated: z.number().int().describe('drifted records beyond the limit'),
    resolved: z.array(DriftedRecord).describe('resolved by a person, not reported until the record changes'),
    scanned: z.number().int(),
    complete: z.boolean().describe('false: the verdicts were more than one request reads'),
  })
  .meta({ id: 'ReconciliationReport' });

const lineage = (connection: string, entity: string, erpId: string) =>
  `${API_BASE}/records/${connection}/${entity}/${encodeURIComponent(erpId)}`;
const iso = (r: DriftResolution) => ({ by: r.by, at: new Date(r.at).toISOString(), note: r.note });

type Listing = Awaited<ReturnType<typeof listDrift>>;
const view = (l: Listing): z.input<typeof Report> => {
  const item = (i: Listing['items'][number]) => ({
    ...i,
    resolved: i.resolved ? iso(i.resolved) : undefined,
    lineage: lineage(l.connection, i.entity, i.erpId),
  });
  return { ...l, items: l.items.map(item), resolved: l.resolved.map(item) };
};

export const reconciliationRoutes = [
  defineRoute({
    method: 'get',
    path: '/reconciliations',
    summary:
      'The latest reconciliation of each connection (or one): its counts by kind and every drifted record (as `erp-sync reconcile --report`)',
    role: 'viewer',
    query: z.object({
      connection: ConnectionId.optional(),
      limit: QueryInt(1, 10_000, 'at most this many drifted records per connection (default 1000)').optional(),
    }),
    response: z.object({ reports: z.array(Report) }),
    handle: async (ctx, { query }) => {
      const ids = query.connection ? [ctx.connection(query.connection).id] : ctx.visibleConnections().map((c) => c.id);
      const reports = [];
      for (const id of ids) reports.push(view(await listDrift(ctx.rt, id, query.limit ?? 1000)));
      return { body: { reports } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/reconciliations',
    summary: 'Run a reconciliation: the reconcile job is enqueued (202 with its id) and a reconcile worker runs it',
    description:
      'A window of days (`from` and `to`, in reconcile.timeZone) or the last `lastDays` days; `deep` also reads the source; `repair` re-reads and writes again what a sync can fix. The outcome is in GET /runs?kind=reconcile and GET /reconciliations.',
    role: 'operator',
    audit: AUDITED.reconcile.action,
    status: 202,
    body: z.object({
      connection: ConnectionId,
      from: DateOnly.optional(),
      to: DateOnly.optional(),
      lastDays: z.number().int().min(1).max(MAX_WINDOW_DAYS).optional(),
      deep: z.boolean().optional(),
      repair: z.boolean().optional(),
    }),
    response: z.object({ connection: z.string(), jobId: z.string() }),
    handle: async (ctx, { body }) => {
      ctx.connection(body.connection);
      const window = windowOf(body);
      const r = await startReconcile(ctx.rt, body.connection, { ...window, deep: body.deep, repair: body.repair });
      return {
        body: { connection: r.connection, jobId: r.jobId },
        detail: AUDITED.reconcile.detail(window, body, r.jobId),
      };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/reconciliations/{connection}/items/{entity}/{erpId}/resolve',
    summary:
      'Mark a drifted record that needs a person resolved, with a note: not reported again until the record changes',
    role: 'operator',
    audit: AUDITED.resolve.action,
    params: z.object({ connection: ConnectionId, entity: EntityParam, erpId: ErpId }),
    body: z.object({ note: z.string().trim().min(1).max(1000).describe('what was done, or why nothing needs doing') }),
    response: z.object({
      connection: z.string(),
      entity: z.string(),
      erpId: z.string(),
      kinds: z.array(z.string()),
      resolution: Resolution,
    }),
    handle: async (ctx, { params, body }) => {
      ctx.connection(params.connection);
      const r = await resolveDrift(ctx.rt, params.connection, params.entity, params.erpId, {
        by: ctx.caller.name,
        note: body.note,
      });
      const what = AUDITED.resolve.what(params.connection, params.entity, params.erpId);
      if (r.state === 'not-drifted') throw notFound(AUDITED.resolve.notDrifted(what));
      if (r.state === 'fixable') throw new ApiError(409, 'FIXABLE', AUDITED.resolve.fixable(what, r.kinds));
      const { state: _s, resolution, ...rest } = r;
      return { body: { ...rest, resolution: iso(resolution) }, detail: AUDITED.resolve.detail(r.kinds, body.note) };
    },
  }),
];

/** from and to together (from not after to), or lastDays; else 400 naming the field. */
function windowOf(b: {
  from?: string;
  to?: string;
  lastDays?: number;
}): { from: string; to: string } | { lastDays: number } {
  const bad = (path: string, message: string) => new ApiError(400, 'BAD_REQUEST', message, path);
  if (b.lastDays !== undefined) {
    if (b.from || b.to) throw bad(b.from ? 'body.from' : 'body.to', 'give from and to, or lastDays, not both');
    return { lastDays: b.lastDays };
  }
  if (!b.from) throw bad('body.from', 'give from and to (days), or lastDays');
  if (!b.to) throw bad('body.to', 'give to with from');
  if (b.from > b.to) throw bad('body.to', `to ${b.to} is before from ${b.from}`);
  const days = (Date.parse(`${b.to}T00:00:00Z`) - Date.parse(`${b.from}T00:00:00Z`)) / 86_400_000 + 1;
  if (days > MAX_WINDOW_DAYS)
    throw bad('body.to', `from ${b.from} to ${b.to} is ${days} days: at most ${MAX_WINDOW_DAYS} per request`);
  return { from: b.from, to: b.to };
}
