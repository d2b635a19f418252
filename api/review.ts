import { AUDITED } from '../operations/audited-actions.js';
import { z } from 'zod';
import { approveReview } from '../operations/review-approve.js';
import { bodyOf, reviewItem, selectReview } from '../operations/review-list.js';
import { rejectReview } from '../operations/review-reject.js';
import { showReview } from '../operations/review-show.js';
import { summarizeReview } from '../operations/review-summary.js';
import type { ReviewEntry, ReviewQueue } from '../src/pipeline/review-queue.js';
import type { ApiContext } from './context.js';
import { ApiError, notFound } from './errors.js';
import { routesOn } from './route.js';
import { ConnectionId, EntityParam, ErpId, IsoInstant, QueryInt } from './schemas.js';

/** What this module's handlers use of the runtime, and nothing else. */
export type ReviewRouteDeps = { review: Pick<ReviewQueue, 'countByRule'> } & Parameters<typeof selectReview>[0] &
  Parameters<typeof summarizeReview>[0] &
  Parameters<typeof showReview>[0] &
  Parameters<typeof approveReview>[0] &
  Parameters<typeof rejectReview>[0];

const defineRoute = routesOn<ReviewRouteDeps>();

const Rule = z.string().regex(/^[a-z][a-z-]{0,39}$/, 'a review rule, e.g. all, first-sync, total-at-least');
const PAGE_SIZE = 50;

const HeldRecord = z
  .object({
    connection: z.string(),
    entity: z.string(),
    erpId: z.string(),
    version: z.string().describe('the source version held'),
    rule: z.string().describe('the rule that held it: all, first-sync, total-at-least, new-customer, …'),
    state: z.enum(['held', 'rejected']),
    since: IsoInstant.describe('when this version was held'),
    number: z.string().optional().describe("the document's number"),
    total: z.string().optional().describe("the document's total, as text (exact)"),
    currency: z.string().optional(),
    customer: z.string().optional().describe("the buyer's name (a customer record: its own)"),
    rejected: z
      .object({ by: z.string(), at: IsoInstant, note: z.string() })
      .optional()
      .describe('a rejection: who, when, their note'),
    body: z.unknown().describe('the billing body that would be sent, as the mapper made it'),
  })
  .meta({ id: 'HeldRecord' });

const ConnectionReview = z.object({
  id: z.string(),
  review: z.string().describe('none, first-sync, all, or rules'),
  held: z.record(z.string(), z.number().int()).describe('held records by rule (rejected ones not counted)'),
});

/** An entry as the API shows it: the listing's line (number, total as text, buyer) and the body it holds. */
export function heldRecord(e: ReviewEntry): z.input<typeof HeldRecord> {
  const { by, at, note, since, ...item } = reviewItem(e);
  return {
    ...item,
    since: new Date(since).toISOString(),
    ...(e.state === 'rejected'
      ? { rejected: { by: by ?? '', at: new Date(at ?? 0).toISOString(), note: note ?? '' } }
      : {}),
    body: bodyOf(e) ?? (e.payload as { body?: unknown } | undefined)?.body,
  };
}

const modeOf = (ctx: ApiContext<ReviewRouteDeps>, id: string): string => {
  const r = ctx.connection(id).review;
  return typeof r === 'string' ? r : 'rules';
};

const Ids = z.array(ErpId).min(1).max(1000);

export const reviewRoutes = [
  defineRoute({
    method: 'get',
    path: '/review',
    summary:
      'Records held for review before write (and rejected ones), oldest first, with the rule that held each and the body that would be sent (as `erp-sync review list`)',
    role: 'viewer',
    query: z.object({
      connection: ConnectionId.optional(),
      rule: Rule.optional(),
      state: z.enum(['held', 'rejected']).optional(),
      page: QueryInt(1, 1_000_000, 'page number, from 1').optional(),
      pageSize: QueryInt(1, 500, `records per page (default ${PAGE_SIZE})`).optional(),
    }),
    response: z.object({
      connections: z.array(ConnectionReview).describe('each connection listed: its review setting and held counts'),
      total: z.number().int().describe('records matching the filters'),
      page: z.number().int(),
      pageSize: z.number().int(),
      records: z.array(HeldRecord),
    }),
    handle: async (ctx, { query }) => {
      const ids = query.connection ? [ctx.connection(query.connection).id] : ctx.visibleConnections().map((c) => c.id);
      const connections = [];
      const all: ReviewEntry[] = [];
      for (const id of ids) {
        connections.push({ id, review: modeOf(ctx, id), held: await ctx.rt.review.countByRule(id) });
        all.push(...(await selectReview(ctx.rt, { connection: id })));
      }
      const matching = all.filter(
        (e) => (!query.rule || e.rule === query.rule) && (!query.state || e.state === query.state),
      );
      const page = query.page ?? 1;
      const pageSize = query.pageSize ?? PAGE_SIZE;
      const records = matching.slice((page - 1) * pageSize, page * pageSize).map(heldRecord);
      return { body: { connections, total: matching.length, page, pageSize, records } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/review/{connection}/summary',
    summary:
      "What a connection's held records add up to (a first sync's, approved at once): counts, totals per currency, the largest documents, the customers billing would get",
    role: 'viewer',
    params: z.object({ connection: ConnectionId }),
    query: z.object({ largest: QueryInt(1, 100, 'how many of the largest documents (default 10)').optional() }),
    response: z.object({
      connection: z.string(),
      review: z.string().describe('none, first-sync, all, or rules'),
      held: z.number().int(),
      byEntity: z.record(z.string(), z.number().int()),
      totals: z
        .array(z.object({ entity: z.string(), currency: z.string(), count: z.number().int(), total: z.string() }))
        .describe('per entity and currency: documents and their exact total, as text'),
      largest: z.array(HeldRecord.omit({ body: true })).describe('by total in the billing currency'),
      customersToCreate: z.array(z.object({ buyerId: z.string(), name: z.string().optional() })),
    }),
    handle: async (ctx, { params, query }) => {
      const review = modeOf(ctx, params.connection);
      const s = await summarizeReview(ctx.rt, params.connection, query.largest ?? 10);
      const largest = s.largest.map(({ since, by: _b, at: _a, note: _n, ...i }) => ({
        ...i,
        since: new Date(since).toISOString(),
      }));
      return { body: { ...s, review, largest } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/review/{connection}/{entity}/{erpId}',
    summary: 'One held (or rejected) record in full: the rule that held it and the body that would be sent',
    role: 'viewer',
    params: z.object({ connection: ConnectionId, entity: EntityParam, erpId: ErpId }),
    response: HeldRecord.extend({ hash: z.string().describe('the content hash of the version held') }),
    handle: async (ctx, { params }) => {
      ctx.connection(params.connection);
      const r = await showReview(ctx.rt, params.connection, params.entity, params.erpId);
      if (!r) throw notFound(`${params.entity}/${params.erpId} of ${params.connection} is not held for review`);
      const e = { ...r.entry, payload: { body: r.body } } as ReviewEntry;
      return { body: { ...heldRecord(e), hash: r.entry.hash } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/review/{connection}/approve',
    summary:
      'Write held records to billing: those named, or all of the connection (on a first-sync connection, its first sync is approved)',
    description:
      'Each approved record is handed to the upsert queue (202), marked approved by the token; approving again adds no second write. `all: true` with `entity` approves only that entity. 404 when none of the records named is held.',
    role: 'operator',
    audit: AUDITED.approve.action,
    status: 202,
    params: z.object({ connection: ConnectionId }),
    body: z.object({
      erpIds: Ids.optional().describe('the held records to approve'),
      all: z.literal(true).optional().describe('every held record of the connection (of `entity`, if given)'),
      entity: EntityParam.optional(),
    }),
    response: z.object({
      connection: z.string(),
      approved: z.number().int().describe('records enqueued for the billing write'),
      notHeld: z.number().int().describe('records selected that were rejected, not held'),
      firstSyncApproved: z.boolean(),
    }),
    handle: async (ctx, { params, body }) => {
      ctx.connection(params.connection);
      if (Boolean(body.all) === Boolean(body.erpIds))
        throw new ApiError(400, 'BAD_REQUEST', 'give erpIds (one or more) or all: true, one of them', 'body.erpIds');
      const s = { connection: params.connection, entity: body.entity, erpIds: body.erpIds, all: body.all };
      const { told, ...r } = await approveReview(ctx.rt, s, ctx.caller.name);
      if (body.erpIds && !r.approved)
        throw notFound(`none of the records named is held for review in ${params.connection} (${r.notHeld} rejected)`);
      return { body: { connection: params.connection, ...r }, ...told };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/review/{connection}/reject',
    summary:
      'Do not write the held records named: each stays rejected, with the note, until the source changes it again',
    role: 'operator',
    audit: AUDITED.reject.action,
    params: z.object({ connection: ConnectionId }),
    body: z.object({
      erpIds: Ids.describe('the held records to reject'),
      entity: EntityParam.optional(),
      note: z.string().trim().min(1).max(1000).describe('why they are not written'),
    }),
    response: z.object({
      connection: z.string(),
      rejected: z.number().int(),
      notHeld: z.number().int().describe('records selected that were not held (rejected already, or replaced)'),
    }),
    handle: async (ctx, { params, body }) => {
      ctx.connection(params.connection);
      const s = { connection: params.connection, entity: body.entity, erpIds: body.erpIds };
      const { told, ...r } = await rejectReview(ctx.rt, s, { by: ctx.caller.name, note: body.note });
      if (!r.rejected) throw notFound(`none of the records named is held for review in ${params.connection}`);
      return { body: { connection: params.connection, ...r }, ...told };
    },
  }),
];
