import { AUDITED } from '../operations/audited-actions.js';
import { z } from 'zod';
import { quarantineFixHint } from '../operations/quarantine-fix-hint.js';
import { showSourceRecord } from '../operations/show-source-record.js';
import { replayQuarantined } from '../operations/replay-quarantined.js';
import { selectQuarantined } from '../operations/select-quarantined.js';
import type { Quarantine, QuarantineEntry } from '../src/pipeline/quarantine.js';
import type { ApiContext } from './context.js';
import { ApiError, notFound, TooManyRequests } from './errors.js';
import { routesOn } from './route.js';
import { ConnectionId, EntityParam, ErpId, IsoInstant, QueryInt } from './schemas.js';

/** What this module's handlers use of the runtime, and nothing else. */
export type QuarantineRouteDeps = { quarantine: Pick<Quarantine, 'get'> } & Parameters<typeof selectQuarantined>[0] &
  Parameters<typeof showSourceRecord>[0] &
  Parameters<typeof replayQuarantined>[0];

const defineRoute = routesOn<QuarantineRouteDeps>();

const Reason = z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'a reason code, e.g. MISSING_FIELD');

const EntrySummary = z
  .object({
    connection: z.string(),
    entity: z.string(),
    erpId: z.string(),
    version: z.string().describe('the source version that failed'),
    reason: z.string(),
    message: z.string(),
    field: z.string().optional().describe('the field at fault, when there is one'),
    stage: z.enum(['map', 'upsert']),
    since: IsoInstant.describe('when it was quarantined'),
    attempts: z.number().int().optional(),
  })
  .meta({ id: 'QuarantinedRecord' });

const summary = (e: QuarantineEntry): z.input<typeof EntrySummary> => ({
  connection: e.connection,
  entity: e.entity,
  erpId: e.erpId,
  version: e.version,
  reason: e.reason,
  message: e.message,
  ...(e.field ? { field: e.field } : {}),
  stage: e.stage,
  since: new Date(e.at).toISOString(),
  ...(e.attempts !== undefined ? { attempts: e.attempts } : {}),
});

const RecordParams = z.object({ connection: ConnectionId, entity: EntityParam, erpId: ErpId });

const ReplayReport = z.object({
  replayed: z.number().int(),
  reenqueued: z.number().int().describe('upsert failures enqueued again from their mapped body'),
  repulled: z.array(z.string()).describe('entities pulled again from just before the record (map failures)'),
});

/** The quarantined records of the connections named (one, or every one the caller sees), newest first. */
async function entriesOf(
  ctx: ApiContext<QuarantineRouteDeps>,
  connection: string | undefined,
  entity?: string,
): Promise<QuarantineEntry[]> {
  const ids = connection ? [ctx.connection(connection).id] : ctx.visibleConnections().map((c) => c.id);
  const all: QuarantineEntry[] = [];
  for (const id of ids) all.push(...(await selectQuarantined(ctx.rt, { connection: id, entity })).entries);
  return all.sort((a, b) => b.at - a.at);
}

async function quarantinedRecord(
  ctx: ApiContext<QuarantineRouteDeps>,
  p: z.output<typeof RecordParams>,
): Promise<QuarantineEntry> {
  ctx.connection(p.connection);
  const e = await ctx.rt.quarantine.get(p.connection, p.entity, p.erpId);
  if (!e) throw notFound(`${p.entity}/${p.erpId} of ${p.connection} is not in quarantine`);
  return e;
}

/** The record as the source holds it, through the cache and the caller's limit (operations/show-source-record.ts). */
async function sourceOf(ctx: ApiContext<QuarantineRouteDeps>, p: z.output<typeof RecordParams>, how: 'true' | 'fresh') {
  const shown = await showSourceRecord(ctx.rt, { ...p, caller: ctx.caller.name, fresh: how === 'fresh' });
  if (shown.limited)
    throw new TooManyRequests(
      `${ctx.caller.name} read records from the source too often (a vendor call or two each): try again in ${shown.retryAfterSeconds} s`,
      shown.retryAfterSeconds,
    );
  const read = shown.read as { state: 'found' | 'not-found' | 'unsupported' };
  return { ...read, readAt: new Date(shown.readAt).toISOString(), cached: shown.cached };
}

export const quarantineRoutes = [
  defineRoute({
    method: 'get',
    path: '/quarantine',
    summary: 'Records that could not be synced, newest first, with counts by reason (and its fix hint)',
    role: 'viewer',
    query: z.object({
      connection: ConnectionId.optional(),
      entity: EntityParam.optional(),
      reason: Reason.optional(),
      page: QueryInt(1, 1_000_000, 'page number, from 1').optional(),
      pageSize: QueryInt(1, 500, 'records per page (default 50)').optional(),
    }),
    response: z.object({
      total: z.number().int().describe('records matching the filters'),
      page: z.number().int(),
      pageSize: z.number().int(),
      byReason: z
        .array(z.object({ reason: z.string(), count: z.number().int(), fixHint: z.string() }))
        .describe('counts by reason under the connection and entity filters (not the reason filter)'),
      records: z.array(EntrySummary),
    }),
    handle: async (ctx, { query }) => {
      const all = await entriesOf(ctx, query.connection, query.entity);
      const counts = new Map<string, number>();
      for (const e of all) counts.set(e.reason, (counts.get(e.reason) ?? 0) + 1);
      const matching = query.reason ? all.filter((e) => e.reason === query.reason) : all;
      const page = query.page ?? 1;
      const pageSize = query.pageSize ?? 50;
      return {
        body: {
          total: matching.length,
          page,
          pageSize,
          byReason: [...counts].map(([reason, count]) => ({ reason, count, fixHint: quarantineFixHint(reason) })),
          records: matching.slice((page - 1) * pageSize, page * pageSize).map(summary),
        },
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/quarantine/{connection}/{entity}/{erpId}',
    summary: 'One quarantined record: why, the field at fault, the mapped body where there is one, the fix hint',
    description:
      'With `source=true` the record is also shown as the source holds it (read by its id: a vendor call or two) and mapped as a pull would: `source.record` is the record as read, `source.mapped` the billing body or why it still cannot be mapped, `source.readAt` when it was read. A read is kept for 5 minutes and shared by every caller (`source.cached`); `source=fresh` reads the vendor again. Each caller may cause at most 10 vendor reads a minute this way: beyond, 429 with Retry-After.',
    role: 'viewer',
    params: RecordParams,
    query: z.object({
      source: z
        .enum(['true', 'false', 'fresh'])
        .optional()
        .describe(
          'also show the record as the source holds it: `true` a read of the last 5 minutes if kept, `fresh` a new read',
        ),
    }),
    response: EntrySummary.extend({
      fixHint: z.string(),
      started: z.number().int().optional().describe('how often its job was started (a job that stopped its worker)'),
      mapped: z.unknown().optional().describe('the billing body the record was mapped to (upsert failures)'),
      source: z
        .object({
          state: z.enum(['found', 'not-found', 'unsupported']),
          readAt: IsoInstant.describe('when it was read from the source'),
          cached: z.boolean().describe('answered from a read of the last 5 minutes, not from the vendor now'),
          record: z.record(z.string(), z.unknown()).optional().describe('id, version, status, lifecycle, raw'),
          mapped: z
            .record(z.string(), z.unknown())
            .optional()
            .describe('{ok, value} or {ok: false, reason, message, field}'),
        })
        .optional(),
    }),
    handle: async (ctx, { params, query }) => {
      const e = await quarantinedRecord(ctx, params);
      const mapped = e.stage === 'upsert' ? (e.payload as { body?: unknown } | undefined)?.body : undefined;
      const source = query.source && query.source !== 'false' ? await sourceOf(ctx, params, query.source) : undefined;
      return {
        body: {
          ...summary(e),
          fixHint: quarantineFixHint(e.reason),
          ...(e.started !== undefined ? { started: e.started } : {}),
          ...(mapped !== undefined ? { mapped } : {}),
          ...(source ? { source } : {}),
        },
      };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/quarantine/{connection}/{entity}/{erpId}/replay',
    summary: 'Try one quarantined record again: it leaves quarantine when it syncs',
    role: 'operator',
    audit: AUDITED.replay.action,
    params: RecordParams,
    status: 202,
    response: ReplayReport,
    handle: async (ctx, { params }) => {
      const e = await quarantinedRecord(ctx, params);
      const r = await replayQuarantined(ctx.rt, [e]);
      return { body: r, detail: AUDITED.replay.detail(e.reason) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/quarantine/replay',
    summary: "Replay a selection (a connection's records, of one entity or reason): a dry run counts, then replay",
    description:
      'With `dryRun` true (the default) nothing changes: the answer says how many records match. Send `dryRun: false` with `expect` set to that count: if the selection changed meanwhile the answer is 409 and nothing is replayed.',
    role: 'operator',
    audit: AUDITED.replaySelection.action,
    body: z.object({
      connection: ConnectionId,
      entity: EntityParam.optional(),
      reason: Reason.optional(),
      dryRun: z.boolean().default(true),
      expect: z.number().int().min(0).optional().describe('the count the dry run gave: 409 if it differs now'),
    }),
    response: z.object({
      connection: z.string(),
      matched: z.number().int(),
      dryRun: z.boolean(),
      replay: ReplayReport.optional(),
    }),
    handle: async (ctx, { body }) => {
      const selected = (await entriesOf(ctx, body.connection, body.entity)).filter(
        (e) => !body.reason || e.reason === body.reason,
      );
      const matched = selected.length;
      if (body.dryRun)
        return {
          body: { connection: body.connection, matched, dryRun: true },
          detail: AUDITED.replaySelection.dryRun(matched),
        };
      if (body.expect !== undefined && body.expect !== matched)
        throw new ApiError(
          409,
          'CONFLICT',
          `the selection holds ${matched} record(s) now, not ${body.expect}: count again`,
        );
      const replay = matched ? await replayQuarantined(ctx.rt, selected) : { replayed: 0, reenqueued: 0, repulled: [] };
      return {
        status: 202,
        body: { connection: body.connection, matched, dryRun: false, replay },
        detail: AUDITED.replaySelection.detail(matched, body.entity, body.reason),
      };
    },
  }),
];
