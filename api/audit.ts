import { z } from 'zod';
import { AUDIT_OUTCOMES } from '../src/pipeline/audit-log.js';
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

export const auditRoutes = [
  defineRoute({
    method: 'get',
    path: '/audit',
    summary: 'Every state-changing API request, newest first: who, what, which connection or record, when, the outcome',
    description:
      'A token limited to some billing companies sees only the entries about their connections. The log keeps about the last 10,000 entries.',
    role: 'viewer',
    query: z.object({
      connection: ConnectionId.optional(),
      limit: QueryInt(1, 500, 'at most this many entries (default 50)').optional(),
      before: z
        .string()
        .regex(/^\d{1,20}-\d{1,20}$/, 'an entry id from an earlier page')
        .optional(),
    }),
    response: z.object({ entries: z.array(AuditEntry) }),
    handle: async (ctx, { query }) => {
      if (query.connection) ctx.connection(query.connection);
      const only = query.connection;
      const limited = Boolean(ctx.caller.companies);
      const entries = await ctx.audit.list({
        limit: query.limit ?? 50,
        ...(query.before ? { before: query.before } : {}),
        ...(only || limited ? { connection: (id: string) => (only ? id === only : ctx.sees(id)) } : {}),
      });
      return { body: { entries: entries.map((e) => ({ ...e, at: new Date(e.at).toISOString() })) } };
    },
  }),
];
