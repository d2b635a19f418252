import type { Runtime } from '../jobs/runtime.js';
import type { AuthorizationFlow, GrantOrganisation, GrantTokens } from '../src/auth/authorization-flow.js';
import { readAuthorizationResponse } from '../src/auth/authorization-response.js';
import { newState } from '../src/auth/oauth-state.js';
import { newPkce } from '../src/auth/pkce.js';
import { tokenKeyOf } from '../src/auth/token-key.js';
import { ConfigError } from '../src/errors/index.js';
import {
  type ChoicePending,
  type PendingAuthorization,
  PendingAuthorizations,
} from '../src/pipeline/pending-authorizations.js';
import { AuthorizationRefused, redeemGrant } from './redeem-grant.js';
import { storeGrant } from './store-grant.js';

export { AuthorizationRefused } from './redeem-grant.js';

/** The path of the console's OAuth callback under `http.publicUrl`: the redirect URI to register with each vendor app. */
export const CONSOLE_CALLBACK_PATH = '/console/oauth/callback';

/** Runs `step` of connection `connection`'s authorisation; its refusal names the connection. */
async function refusalsOf<T>(connection: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (e) {
    if (e instanceof AuthorizationRefused && !e.connection) throw new AuthorizationRefused(e.message, connection);
    throw e;
  }
}

type AuthorizeRuntime = Pick<Runtime, 'config' | 'pendingAuthorizations' | 'tokens' | 'quotas' | 'connection'>;

/** Who finishes an authorisation: the console session (its id's sha256) and the token name. */
export interface AuthorizingSession {
  session: string;
  who: string;
}

export interface AuthorizationStarted {
  connection: string;
  /** Where the person's browser goes next: the vendor's consent page. */
  authorizeUrl: string;
  redirectUri: string;
  expiresInSeconds: number;
}

/** The organisation chosen, the tokens stored, and the config line naming that organisation. */
export interface AuthorizationStored {
  outcome: 'stored';
  connection: string;
  organisation: GrantOrganisation;
  tokenKey: string;
  /** The sealing key's id, or `plain`. */
  sealed: string;
  replaced: boolean;
  /** `connections[].settings` lines for this grant (the organisation, and what the callback told). */
  configLines: string[];
  /** False when the config names another organisation than the one chosen (the config line says which to set). */
  matchesConfig: boolean;
}

/** A grant that reaches several organisations: nothing is stored until the person chooses one. */
export interface AuthorizationChoice {
  outcome: 'choose';
  connection: string;
  organisations: Array<GrantOrganisation & { configured: boolean }>;
}

const pendingOf = (rt: AuthorizeRuntime) => rt.pendingAuthorizations;

function flowOf(rt: AuthorizeRuntime, connection: string) {
  const handle = rt.connection(connection);
  const flow: AuthorizationFlow | undefined = handle.connector.authorization;
  if (!flow) throw new ConfigError(`${handle.config.system} has no authorization flow in this build`);
  const c = handle.config;
  const settings = { ...(c.settings as object), ...(c.baseUrl ? { baseUrl: c.baseUrl } : {}) };
  const tokenKey = tokenKeyOf({ config: { id: c.id, settings: c.settings }, connector: handle.connector });
  return { flow, settings, tokenKey };
}

/**
 * Starts a connection's OAuth consent from the console: a fresh `state` (and PKCE verifier where the vendor
 * takes one) kept in Redis, bound to the console session that asked; answers the vendor's authorize URL,
 * whose redirect URI is the console's callback under `http.publicUrl`.
 */
export async function startAuthorization(
  rt: AuthorizeRuntime,
  connection: string,
  by: AuthorizingSession,
): Promise<AuthorizationStarted> {
  const publicUrl = rt.config.http.publicUrl;
  if (!publicUrl) throw new ConfigError('set http.publicUrl (the console address the vendor redirects back to)');
  const { flow, settings } = flowOf(rt, connection);
  const redirectUri = `${publicUrl.replace(/\/+$/, '')}${CONSOLE_CALLBACK_PATH}`;
  const state = newState();
  const pkce = flow.pkce ? newPkce() : undefined;
  const pending = pendingOf(rt);
  await pending.put(state, { phase: 'consent', connection, ...by, redirectUri, verifier: pkce?.verifier });
  const authorizeUrl = flow.authorizeUrl(settings, { redirectUri, state, codeChallenge: pkce?.challenge });
  return { connection, authorizeUrl, redirectUri, expiresInSeconds: pending.ttlSeconds };
}

/**
 * The pending authorisation of `state`, taken (a state works once) if this session started it. The session
 * is checked before anything is taken: another session presenting the state leaves it to its owner.
 */
async function takeOwn(rt: AuthorizeRuntime, state: string, session: string) {
  const pending = pendingOf(rt);
  const t = await pending.takeOwn(state, session);
  if (!t.found) throw new AuthorizationRefused('no authorisation in progress for this state (stale, used, or forged)');
  if (!t.own)
    throw new AuthorizationRefused('this authorisation was started from another console session', t.connection);
  return { pending, p: t.pending };
}

/**
 * The browser came back to the console's callback with `query`: checks its state (this session's, once),
 * exchanges the code, reads the organisations the grant reaches. One organisation (or the config's, when
 * the grant reaches only it): the tokens are stored. Several: nothing is stored; the grant is held sealed
 * until `chooseOrganisation`, never the first taken.
 */
export async function finishAuthorization(
  rt: AuthorizeRuntime,
  query: URLSearchParams,
  session: string,
): Promise<AuthorizationStored | AuthorizationChoice> {
  const state = query.get('state') ?? '';
  const { pending, p } = await takeOwn(rt, state, session);
  return refusalsOf(p.connection, () => redeemPending(rt, { pending, p, state, query }));
}

async function redeemPending(
  rt: AuthorizeRuntime,
  {
    pending,
    p,
    state,
    query,
  }: { pending: PendingAuthorizations; p: PendingAuthorization; state: string; query: URLSearchParams },
): Promise<AuthorizationStored | AuthorizationChoice> {
  if (p.phase !== 'consent') throw new AuthorizationRefused('this authorisation already came back');
  const outcome = readAuthorizationResponse(query, state);
  if ('refused' in outcome) throw new AuthorizationRefused(`${outcome.refused}; nothing stored`);
  const { flow, settings } = flowOf(rt, p.connection);
  const exchange = { code: outcome.code, redirectUri: p.redirectUri, codeVerifier: p.verifier, callback: query };
  const { tokens, orgs } = await redeemGrant(flow, settings, exchange);
  const extraConfigLines = flow.extraConfigLines?.(settings, query) ?? [];
  if (orgs.length === 0) throw new AuthorizationRefused('the grant reaches no organisation; nothing stored');
  const configured = flow.configuredOrganisation(settings)?.toLowerCase();
  if (configured !== undefined && !orgs.some((o) => o.id.toLowerCase() === configured))
    throw new AuthorizationRefused(
      `${flow.organisationSetting} ${configured} (the config's) is not among the organisations this grant reaches; nothing stored`,
    );
  if (orgs.length === 1) return store(rt, p.connection, tokens, orgs[0]!, extraConfigLines);
  const held: ChoicePending = {
    phase: 'choose',
    connection: p.connection,
    session: p.session,
    who: p.who,
    organisations: orgs.map(({ id, name }) => ({ id, name })),
    sealedGrant: pending.seal(state, tokens),
    extraConfigLines,
  };
  await pending.put(state, held);
  return {
    outcome: 'choose',
    connection: p.connection,
    organisations: held.organisations.map((o) => ({ ...o, configured: o.id.toLowerCase() === configured })),
  };
}

/** The person chose `organisation` among the grant's: the held tokens are stored for the connection. */
export async function chooseOrganisation(
  rt: AuthorizeRuntime,
  state: string,
  organisation: string,
  session: string,
): Promise<AuthorizationStored> {
  const { pending, p } = await takeOwn(rt, state, session);
  if (p.phase !== 'choose')
    throw new AuthorizationRefused('this authorisation has no grant waiting for a choice', p.connection);
  const chosen = p.organisations.find((o) => o.id.toLowerCase() === organisation.toLowerCase());
  if (!chosen) {
    await pending.put(state, p);
    throw new AuthorizationRefused(`${organisation} is not among the organisations this grant reaches`, p.connection);
  }
  const tokens = pending.open(state, p.sealedGrant) as GrantTokens;
  return store(rt, p.connection, tokens, chosen, p.extraConfigLines);
}

async function store(
  rt: AuthorizeRuntime,
  connection: string,
  tokens: GrantTokens,
  organisation: GrantOrganisation,
  extraConfigLines: string[],
): Promise<AuthorizationStored> {
  const { flow, settings, tokenKey } = flowOf(rt, connection);
  const stored = await storeGrant(rt, rt.config, tokenKey, tokens);
  const configured = flow.configuredOrganisation(settings);
  const yamlValue = /^[0-9]+$/.test(organisation.id) ? `"${organisation.id}"` : organisation.id;
  return {
    outcome: 'stored',
    connection,
    organisation: { id: organisation.id, name: organisation.name },
    tokenKey,
    sealed: stored.sealed ?? 'plain',
    replaced: stored.replaced,
    configLines: [`${flow.organisationSetting}: ${yamlValue}`, ...extraConfigLines],
    matchesConfig: configured === undefined || configured.toLowerCase() === organisation.id.toLowerCase(),
  };
}
