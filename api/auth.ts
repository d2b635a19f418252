import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { ApiRole, AppConfig } from '../src/config.js';
import type { CredentialGuard } from '../src/http/credential-guard.js';
import { type ConsoleSession, ConsoleSessions } from '../src/pipeline/console-sessions.js';
import { ApiError, sendError } from './errors.js';

/** Who sent a request: the token's name (what logs and the audit log show), its role, its companies. */
export interface Caller {
  name: string;
  role: ApiRole;
  /** Billing companies it is limited to; undefined: every company. */
  companies?: ReadonlySet<string>;
  /** For a console session's request: the sha256 of its session id (what an OAuth `state` is bound to), never the id. */
  session?: string;
}

/** The name `http.adminToken` goes by in the audit log. */
export const ADMIN_TOKEN_NAME = 'adminToken';

const RANK: Record<ApiRole, number> = { viewer: 0, operator: 1, admin: 2 };

/** True when `role` may do what `needed` may. */
export const mayAct = (role: ApiRole, needed: ApiRole): boolean => RANK[role] >= RANK[needed];

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * The caller a presented token belongs to, or undefined. Every configured token is compared, in
 * constant time each (digests of equal length), and the loop never stops early: the time taken says
 * nothing about which token, or how much of one, matched.
 */
export function callerOf(http: AppConfig['http'], presented: string): Caller | undefined {
  const p = digest(presented);
  let found: Caller | undefined;
  const candidates: Array<{ token: string; caller: Caller }> = http.tokens.map((t) => ({
    token: t.token,
    caller: { name: t.name, role: t.role, ...(t.companies ? { companies: new Set(t.companies) } : {}) },
  }));
  if (http.adminToken) candidates.push({ token: http.adminToken, caller: { name: ADMIN_TOKEN_NAME, role: 'admin' } });
  for (const c of candidates) if (timingSafeEqual(p, digest(c.token)) && !found) found = c.caller;
  return found;
}

/**
 * The caller of a console session: the configured token of that name, read from the running config (a
 * token removed from it ends its sessions), or undefined.
 */
export function callerNamed(http: AppConfig['http'], name: string): Caller | undefined {
  if (name === ADMIN_TOKEN_NAME) return http.adminToken ? { name: ADMIN_TOKEN_NAME, role: 'admin' } : undefined;
  const t = http.tokens.find((x) => x.name === name);
  return t && { name: t.name, role: t.role, ...(t.companies ? { companies: new Set(t.companies) } : {}) };
}

/** The value the config holds now for the token named `name` (`http.tokens[].token`, or `http.adminToken`). */
export function configuredToken(http: AppConfig['http'], name: string): string | undefined {
  if (name === ADMIN_TOKEN_NAME) return http.adminToken;
  return http.tokens.find((t) => t.name === name)?.token;
}

/**
 * The console session of cookie value `sessionId` and its caller, or undefined: ended (signed out, idle
 * or past its absolute lifetime), or its token removed from the config or given another value since.
 */
export async function sessionOf(
  http: AppConfig['http'],
  sessions: ConsoleSessions,
  sessionId: string,
): Promise<{ session: ConsoleSession; caller: Caller } | undefined> {
  const session = await sessions.get(sessionId, (name) => configuredToken(http, name));
  const caller = session && callerNamed(http, session.name);
  return session && caller ? { session, caller } : undefined;
}

/** True when the request carries the CSRF token of session `sessionId` in its X-CSRF-Token header (constant-time). */
export const csrfMatches = (req: Request, sessionId: string): boolean =>
  ConsoleSessions.csrfMatches(sessionId, req.get(CSRF_HEADER) ?? '');

/** The console's session cookie (HttpOnly, SameSite=Strict; its value a random session id, never a token). */
export const CONSOLE_COOKIE = 'erp_sync_console';
/** The header a console page sends its session's CSRF token in, on every request that changes state. */
export const CSRF_HEADER = 'x-csrf-token';

/** The value of cookie `name` in the request's Cookie header, if any. */
export function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The caller of a console session cookie; on a request that changes state (not GET or HEAD) only with
 * the session's CSRF token in the X-CSRF-Token header (else 403): a page of another origin can neither
 * read that token nor set the header without a CORS preflight, which the API never answers.
 */
async function sessionCaller(
  req: Request,
  http: AppConfig['http'],
  sessions: ConsoleSessions,
  sessionId: string,
): Promise<Caller | ApiError> {
  const found = await sessionOf(http, sessions, sessionId);
  if (!found) return new ApiError(401, 'UNAUTHORIZED', 'the console session ended: sign in again');
  const safe = req.method === 'GET' || req.method === 'HEAD';
  if (!safe && !csrfMatches(req, sessionId))
    return new ApiError(403, 'FORBIDDEN', `a console request that changes state needs its ${CSRF_HEADER} header`);
  return { ...found.caller, session: digest(sessionId).toString('hex') };
}

/** The credentials of RFC 6750 section 2.1 (`Authorization: Bearer <token>`, scheme case-insensitive), if any. */
function bearer(req: Request): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(req.get('authorization')?.trim() ?? '')?.[1]?.trim();
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the API's authentication, before anything else of the request is read. */
    caller?: Caller;
  }
}

/** Why a bearer request is refused: no token (401), a wrong one (401), or too many wrong ones from its address (429). */
function bearerRefusal(res: Response, presented: string | undefined, limited?: number): void {
  if (limited !== undefined) {
    res.set('retry-after', String(limited));
    const wait = `too many wrong tokens from this address: try again in ${limited} s`;
    return sendError(res, new ApiError(429, 'TOO_MANY_REQUESTS', wait));
  }
  res.set('www-authenticate', 'Bearer realm="erp-sync api"');
  const message =
    presented === undefined
      ? 'send Authorization: Bearer <token> (http.tokens in the config)'
      : 'the token is not one of http.tokens';
  sendError(res, new ApiError(401, 'UNAUTHORIZED', message));
}

/** The caller of a bearer token, judged by `guard` when there is one (wrong tokens counted per address, 429 past the limit). */
async function bearerCaller(
  req: Request,
  http: AppConfig['http'],
  presented: string,
  guard: CredentialGuard | undefined,
): Promise<Caller | { limited?: number }> {
  const caller = callerOf(http, presented);
  if (!guard) return caller ?? {};
  const verdict = await guard.judge(
    'api',
    { peer: req.socket.remoteAddress, forwardedFor: req.get('x-forwarded-for') },
    !!caller,
  );
  if (!verdict.allowed) return { limited: verdict.retryAfterSeconds };
  return caller ?? {};
}

/**
 * The API's first handler: a request without a known bearer token (or, with `sessions`, a live console
 * session cookie) answers 401 before its body is read or its path matched. The tokens are read from the
 * running config at each request (a config reload applies a change of `http.tokens` at once: app/reload-config.ts).
 * A bearer token wins over a cookie; a session's caller is its token's, so roles, companies and the
 * audit log's names are the same whichever way the request came. With `guard`, wrong bearer tokens are
 * limited per client address like console sign-ins (429 with Retry-After), counted and logged.
 */
export function authenticate(
  http: () => AppConfig['http'],
  sessions?: ConsoleSessions,
  guard?: CredentialGuard,
): RequestHandler {
  return (req, res, next) => {
    const presented = bearer(req);
    const sessionId = sessions && presented === undefined ? cookieOf(req, CONSOLE_COOKIE) : undefined;
    if (sessions && sessionId !== undefined) {
      sessionCaller(req, http(), sessions, sessionId).then((c) => {
        if (c instanceof ApiError) return sendError(res, c);
        req.caller = c;
        next();
      }, next);
      return;
    }
    if (presented === undefined) return bearerRefusal(res, undefined);
    bearerCaller(req, http(), presented, guard).then((c) => {
      if (!('role' in c)) return bearerRefusal(res, presented, c.limited);
      req.caller = c;
      next();
    }, next);
  };
}
