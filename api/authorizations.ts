import { AUDITED } from '../operations/audited-actions.js';
import { z } from 'zod';
import {
  AuthorizationRefused,
  chooseOrganisation,
  finishAuthorization,
  startAuthorization,
} from '../operations/authorize-connection.js';
import type { ApiContext } from './context.js';
import { ApiError } from './errors.js';
import { routesOn } from './route.js';
import { ConnectionId } from './schemas.js';

/** What this module's handlers use of the runtime, and nothing else. */
export type AuthorizationRouteDeps = Parameters<typeof startAuthorization>[0] &
  Parameters<typeof finishAuthorization>[0] &
  Parameters<typeof chooseOrganisation>[0];

const defineRoute = routesOn<AuthorizationRouteDeps>();

const Organisation = z.object({ id: z.string(), name: z.string() });

const Stored = z.object({
  outcome: z.literal('stored'),
  connection: z.string(),
  organisation: Organisation,
  tokenKey: z.string().describe('the token store key the grant is under (the connection, or its token group)'),
  sealed: z.string().describe('the id of the key the tokens are sealed under, or `plain` without ERP_SYNC_TOKEN_KEY'),
  replaced: z.boolean().describe('true when tokens were stored before (they are replaced)'),
  configLines: z.array(z.string()).describe("connections[].settings lines naming the grant's organisation"),
  matchesConfig: z.boolean().describe('false: the config names another organisation than the one chosen'),
});
const Choice = z.object({
  outcome: z.literal('choose'),
  connection: z.string(),
  organisations: z.array(Organisation.extend({ configured: z.boolean() })),
});
const Answer = z.discriminatedUnion('outcome', [Stored, Choice]).meta({ id: 'AuthorizationOutcome' });

/** The console session a consent is bound to; a bearer token has none (its browser could not come back to a session). */
function sessionOf(ctx: ApiContext<AuthorizationRouteDeps>): { session: string; who: string } {
  if (!ctx.caller.session)
    throw new ApiError(
      403,
      'FORBIDDEN',
      'a consent is started and finished from a console session (its state is bound to it): sign in at /console',
    );
  return { session: ctx.caller.session, who: ctx.caller.name };
}

/** An authorisation that stored nothing: 403 with why (the audit log says refused). */
async function refusedAs403<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof AuthorizationRefused)
      throw Object.assign(new ApiError(403, 'REFUSED', e.message), { connection: e.connection });
    throw e;
  }
}

const said = (r: z.input<typeof Answer>) =>
  r.outcome === 'stored'
    ? `tokens stored for ${r.organisation.id} (${r.organisation.name}), sealed: ${r.sealed}${r.replaced ? ', replacing the ones before' : ''}`
    : `the grant reaches ${r.organisations.length} organisations: waiting for the choice; nothing stored yet`;

export const authorizationRoutes = [
  defineRoute({
    method: 'post',
    path: '/connections/{id}/authorize',
    summary: "Start a connection's OAuth consent from the console: answers the vendor's authorize URL",
    description:
      "Console sessions only (the `state` is bound to the session). The redirect URI is `http.publicUrl` + `/console/oauth/callback`; the console's callback page finishes it with POST /authorizations/callback.",
    role: 'admin',
    audit: AUDITED.authorizeStart.action,
    params: z.object({ id: ConnectionId }),
    response: z.object({
      connection: z.string(),
      authorizeUrl: z.string(),
      redirectUri: z.string(),
      expiresInSeconds: z.number().int(),
    }),
    handle: async (ctx, { params }) => {
      ctx.connection(params.id);
      const r = await startAuthorization(ctx.rt, params.id, sessionOf(ctx));
      return { body: r, detail: `consent started; redirect URI ${r.redirectUri}` };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/authorizations/callback',
    summary: 'Finish a consent: the query the vendor redirected the browser back with (state, code)',
    description:
      'The state must be one this session started, and works once. One organisation: the tokens are stored, sealed, in place of the old ones. Several (a Xero login with several tenants): nothing is stored; the answer lists them for POST /authorizations/choose.',
    role: 'admin',
    audit: AUDITED.authorize.action,
    body: z.object({ query: z.string().max(8192).describe("the callback URL's query string, as it came") }),
    response: Answer,
    handle: async (ctx, { body }) => {
      const { session } = sessionOf(ctx);
      const r = await refusedAs403(() => finishAuthorization(ctx.rt, new URLSearchParams(body.query), session));
      return { body: r, detail: said(r), connection: r.connection };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/authorizations/choose',
    summary: 'Choose the organisation of a grant that reaches several: its tokens are stored for the connection',
    role: 'admin',
    audit: AUDITED.authorize.action,
    body: z.object({ state: z.string().min(1).max(200), organisation: z.string().min(1).max(200) }),
    response: Stored,
    handle: async (ctx, { body }) => {
      const { session } = sessionOf(ctx);
      const r = await refusedAs403(() => chooseOrganisation(ctx.rt, body.state, body.organisation, session));
      return { body: r, detail: said(r), connection: r.connection };
    },
  }),
];
