import { z } from 'zod';
import { AUDITED } from '../operations/audited-actions.js';
import { changeConnection } from '../operations/change-connection.js';
import { createConnection } from '../operations/create-connection.js';
import { removeConnection } from '../operations/remove-connection.js';
import type { ConnectionAdmin, StoredConnectionsRuntime } from '../operations/stored-connection-rules.js';
import { ConnectionChangeRefusedError } from '../src/errors/index.js';
import type { ApiContext } from './context.js';
import { ApiError } from './errors.js';
import { routesOn } from './route.js';
import { ConnectionId, IsoInstant } from './schemas.js';

/** What this module's handlers use of the runtime, and nothing else. */
export type StoredConnectionRouteDeps = StoredConnectionsRuntime;

const defineRoute = routesOn<StoredConnectionRouteDeps>();

const Params = z.object({ id: ConnectionId });

const Entry = z
  .record(z.string(), z.unknown())
  .describe(
    "the connection as a `connections[]` entry of the YAML (docs/configuration.md), without secrets: vendor app secrets and other companies' keys as `${VAR}` references filled from each worker's environment, no refreshToken (the grant comes from the consent), `webhooks: {}` for a generated webhook secret",
  );

const StoredConnectionView = z
  .object({
    id: z.string(),
    origin: z.literal('api'),
    company: z.string().nullable(),
    connection: z.record(z.string(), z.unknown()).describe('the entry as stored (no secret is in it)'),
    webhookSecret: z.enum(['none', 'set']),
    createdAt: IsoInstant,
    createdBy: z.string(),
    updatedAt: IsoInstant,
    updatedBy: z.string(),
    removedAt: IsoInstant.nullable(),
  })
  .meta({ id: 'StoredConnection' });

const CODE = {
  invalid: 'BAD_REQUEST',
  forbidden: 'FORBIDDEN',
  'not-found': 'NOT_FOUND',
  conflict: 'CONFLICT',
} as const;

/** The operation's refusal as the API answers it: 400 naming the path in the body, 403, 404, 409. */
async function answering<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (e) {
    if (!(e instanceof ConnectionChangeRefusedError)) throw e;
    const path = e.refusal === 'invalid' ? ['body', 'connection', e.path].filter(Boolean).join('.') : undefined;
    throw new ApiError(e.status!, CODE[e.refusal], e.message, path);
  }
}

const adminOf = (ctx: ApiContext<StoredConnectionRouteDeps>): ConnectionAdmin => ({
  who: ctx.caller.name,
  ...(ctx.caller.companies ? { companies: ctx.caller.companies } : {}),
});

/** Top-level keys a patch names (what the audit log says changed; never values). */
const keysOf = (patch: Record<string, unknown>) => Object.keys(patch).sort();

/**
 * Connections as data: admins create, change and remove connections stored in Redis (the YAML's stay
 * the YAML's: read-only here, 409). Every worker applies a change within seconds.
 */
export const storedConnectionRoutes = [
  defineRoute({
    method: 'post',
    path: '/connections',
    summary: 'Create a connection (stored in Redis; every worker starts it within seconds)',
    description:
      'Checked as a YAML connection is; refused (409) on an id a YAML connection or another stored one holds. A company-limited admin creates connections of its companies only (403). With `webhooks: {}`, the answer carries the generated webhook secret, shown this once.',
    role: 'admin',
    audit: AUDITED.create.action,
    body: z.object({ connection: Entry }),
    status: 201,
    response: z.object({ connection: StoredConnectionView, webhookSecret: z.string().optional() }),
    handle: async (ctx, { body }) => {
      const r = await answering(() => createConnection(ctx.rt, body.connection, adminOf(ctx)));
      return {
        body: r,
        connection: r.connection.id,
        detail: AUDITED.create.detail(r.connection.company, r.webhookSecret !== undefined),
      };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/connections/{id}',
    summary:
      'Change a stored connection by a JSON merge patch of its entry (RFC 7396); a YAML connection is read-only (409)',
    role: 'admin',
    audit: AUDITED.change.action,
    params: Params,
    body: z.object({ connection: Entry.describe('a merge patch: keys to set, `null` to remove one') }),
    response: z.object({ connection: StoredConnectionView, webhookSecret: z.string().optional() }),
    handle: async (ctx, { params, body }) => {
      const r = await answering(() => changeConnection(ctx.rt, params.id, body.connection, adminOf(ctx)));
      return { body: r, detail: AUDITED.change.detail(keysOf(body.connection)) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/connections/{id}',
    summary:
      'Remove a stored connection: its schedules and queued jobs stop at once; its state is kept for the retention, or purged now with purge=true',
    role: 'admin',
    audit: AUDITED.remove.action,
    params: Params,
    query: z.object({ purge: z.enum(['true', 'false']).optional().describe('purge its state now') }),
    response: z.object({
      connection: StoredConnectionView,
      schedulers: z.array(z.string()),
      removedJobs: z.number().int(),
      purgedKeys: z.number().int().nullable(),
      purgeAfter: IsoInstant.nullable(),
    }),
    handle: async (ctx, { params, query }) => {
      const purge = query.purge === 'true';
      const r = await answering(() => removeConnection(ctx.rt, params.id, adminOf(ctx), { purge }));
      return { body: r, detail: AUDITED.remove.detail(r) };
    },
  }),
];
