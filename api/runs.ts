import { z } from 'zod';
import { listRuns, type PrintedRun } from '../operations/list-runs.js';
import { RUN_KINDS } from '../src/pipeline/run-history.js';
import { ApiError } from './errors.js';
import { routesOn } from './route.js';
import { ConnectionId, EntityParam, IsoInstant, QueryInt } from './schemas.js';

/** What this module's handlers use of the runtime, and nothing else. */
export type RunRouteDeps = Parameters<typeof listRuns>[0];

const defineRoute = routesOn<RunRouteDeps>();

const Run = z
  .object({
    kind: z.enum(RUN_KINDS),
    connection: z.string(),
    entity: z.string().optional(),
    window: z.object({ from: z.string(), to: z.string() }).optional(),
    lastDays: z.number().int().optional(),
    deep: z.boolean().optional(),
    runId: z.string().optional(),
    jobId: z.string().optional(),
    attempt: z.number().int().optional(),
    startedAt: IsoInstant,
    endedAt: IsoInstant,
    durationMs: z.number().int(),
    outcome: z.enum(['ok', 'failed', 'skipped']),
    counts: z.record(z.string(), z.number()),
    error: z.string().optional(),
    retrying: z.boolean().optional(),
    reason: z.string().optional(),
  })
  .meta({ id: 'Run' });

export const runRoutes = [
  defineRoute({
    method: 'get',
    path: '/runs',
    summary:
      'The last pulls, backfill windows and reconciliations, newest first (of one connection, or every one the token sees)',
    role: 'viewer',
    query: z.object({
      connection: ConnectionId.optional(),
      entity: EntityParam.optional(),
      kind: z.enum(RUN_KINDS).optional(),
      limit: QueryInt(1, 500, 'at most this many runs (default 20)').optional(),
    }),
    response: z.object({ runs: z.array(Run) }),
    handle: async (ctx, { query }) => {
      if (query.kind === 'reconcile' && query.entity)
        throw new ApiError(
          400,
          'BAD_REQUEST',
          'entity selects pulls and backfill windows; reconcile runs have none',
          'query.entity',
        );
      const limit = query.limit ?? 20;
      const ids = query.connection ? [ctx.connection(query.connection).id] : ctx.visibleConnections().map((c) => c.id);
      const runs: PrintedRun[] = [];
      for (const id of ids)
        runs.push(...(await listRuns(ctx.rt, id, { kind: query.kind, entity: query.entity }, limit)));
      runs.sort((a, b) => b.endedAt.localeCompare(a.endedAt));
      return { body: { runs: runs.slice(0, limit) } };
    },
  }),
];
