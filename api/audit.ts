import { z } from 'zod';
import { AUDIT_OUTCOMES, type AuditLog } from '../src/pipeline/audit-log.js';
import type { ApiContext } from './context.js';
import { defineRoute } from './route.js';
import { ConnectionId, IsoInstant, QueryInt } from './schemas.js';

const AuditEntry = z
  .object({
    id: z.string().describe('the paging cursor: pass it as `before` for the next page'),
    at: IsoInstant,
    who: z.string().describe("the token's name"),
    action: z.string(),
    connection: z.string().optional(),
    record: z.string().optional().describe('entity/erpId'),
    outcome: z.enum(AUDIT_OUTCOMES),
    status: z.number().int(),
    detail: z.string().optional(),
  })
  .meta({ id: 'AuditEntry' });

/** The largest part of a Redis stream id (an unsigned 64-bit number): a larger one is 400 here, not Redis' error. */
const U64_MAX = 18_446_744_073_709_551_615n;

const AuditQuery = z.object({
  connection: ConnectionId.optional(),
  limit: QueryInt(1, 500, 'at most this many entries (default 50)').optional(),
  before: z
    .string()
    .regex(/^\d{1,20}-\d{1,20}$/, 'an entry id from an earlier page')
    .refine(
      (id) => !/^\d+-\d+$/.test(id) || id.split('-').every((part) => BigInt(part) <= U64_MAX),
      'an entry id from an earlier page',
    )
    .optional(),
});

/** One page of a stream of the audit log, filtered to what the caller may see. */
async function page(
  ctx: ApiContext,
  query: z.output<typeof AuditQuery>,
  list: (q: Parameters<AuditLog['list']>[0]) => Promise<Awaited<ReturnType<AuditLog['list']>>>,
) {
  if (query.connection) ctx.connection(query.connection);
  const only = query.connection;
  const limited = Boolean(ctx.caller.companies);
  const entries = await list({
    limit: query.limit ?? 50,
    ...(query.before ? { before: query.before } : {}),
    ...(only || limited ? { connection: (id: string) => (only ? id === only : ctx.sees(id)) } : {}),
  });
  return { body: { entries: entries.map((e) => ({ ...e, at: new Date(e.at).toISOString() })) } };
}

export const auditRoutes = [
  defineRoute({
    method: 'get',
    path: '/audit',
    summary: 'Every state-changing API request, newest first: who, what, which connection or record, when, the outcome',
    description:
      'A token limited to some billing companies sees only the entries about their connections. Entries are kept `audit.retentionDays` days (default 400). Requests refused for a role too low are not here: GET /audit/refusals.',
    role: 'viewer',
    query: AuditQuery,
    response: z.object({ entries: z.array(AuditEntry) }),
    handle: (ctx, { query }) => page(ctx, query, (q) => ctx.audit.list(q)),
  }),
  defineRoute({
    method: 'get',
    path: '/audit/refusals',
    summary:
      'Requests refused before they could act, newest first: a role too low (403), a console sign-in with an unknown token (401)',
    description:
      'Kept apart from the action log and bounded (about the last 10,000; at most 10 a minute per token name or client address, the rest only counted in erpsync_api_refusals_total). A token limited to some billing companies sees only the refusals about their connections.',
    role: 'viewer',
    query: AuditQuery,
    response: z.object({ entries: z.array(AuditEntry) }),
    handle: (ctx, { query }) => page(ctx, query, (q) => ctx.audit.refusals.list(q)),
  }),
];
