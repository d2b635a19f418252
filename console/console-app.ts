import type { TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';
import express, { type Express, type Request, type Response } from 'express';
import type { Runtime } from '../jobs/runtime.js';
import { type Caller, CONSOLE_COOKIE, CSRF_HEADER, callerOf, cookieOf, csrfMatches, sessionOf } from '../api/auth.js';
import { apiContext } from '../api/context.js';
import { companyTimeZone } from '../src/billing/company-time-zone.js';
import type { AppConfig } from '../src/config.js';
import { acceptedLocales } from './accept-language.js';
import type { AuditLog } from '../src/pipeline/audit-log.js';
import { unexpiredTokens } from '../src/auth/token-expiry.js';
import type { ConsoleSessions } from '../src/pipeline/console-sessions.js';
import { type CredentialGuard, credentialGuardOf } from '../src/http/credential-guard.js';
import { requestScheme, TrustedProxies } from '../src/http/client-address.js';

/** The console's own files (HTML, CSS, JavaScript modules), next to this module in the source and in dist/. */
export const CONSOLE_ASSETS = fileURLToPath(new URL('./assets/', import.meta.url));

/** What every console page may load: its own origin only (no CDN, no inline script), and never inside a frame. */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const secured = (res: Response) =>
  res.set({
    'content-security-policy': CSP,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  });

const refuse = (res: Response, status: number, error: string, message: string) =>
  res.status(status).json({ error, message });

/**
 * How the browser reached the console: its scheme (a TLS socket, or X-Forwarded-Proto from
 * `http.trustedProxies` only), the origins a page of the console has (the one the request names, and
 * `http.publicUrl`'s), and whether the cookie must be `Secure` (either is https).
 */
function reachedAs(req: Request, http: AppConfig['http']): { origins: string[]; secure: boolean } {
  const tls = (req.socket as TLSSocket).encrypted === true;
  const trusted = new TrustedProxies(http.trustedProxies);
  const scheme = requestScheme(req.socket.remoteAddress, req.get('x-forwarded-proto'), tls, trusted);
  const published = http.publicUrl ? new URL(http.publicUrl) : undefined;
  const origins = [`${scheme}://${req.get('host')}`, ...(published ? [published.origin] : [])];
  return { origins, secure: scheme === 'https' || published?.protocol === 'https:' };
}

/** The cookie: the session id only, for the whole origin (the API's paths too), HttpOnly, SameSite=Strict. */
function sessionCookie(req: Request, http: AppConfig['http'], value: string, maxAgeSeconds: number): string {
  const secure = reachedAs(req, http).secure ? '; Secure' : '';
  return `${CONSOLE_COOKIE}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`;
}

/** A sign-in must come from a page of this console: JSON (no cross-site form can send it) and, when the browser names one, one of its origins. */
function sameOrigin(req: Request, http: AppConfig['http']): boolean {
  const origin = req.get('origin');
  return (
    req.is('application/json') === 'application/json' && (!origin || reachedAs(req, http).origins.includes(origin))
  );
}

interface Stores {
  rt: Runtime;
  sessions: ConsoleSessions;
  guard: CredentialGuard;
  audit: AuditLog;
}

/**
 * What the page is told about who signed in: the token's name and role, and the billing companies it is
 * limited to (null: every one), so the page offers only what the role may do and says whose data it shows;
 * the reader's locales (Accept-Language); and the time zone of each connection's billing company it may
 * see (`zones`), with `zone` for what belongs to no connection (their one zone when they share it, else
 * `billing.timeZone`'s), so every time reads on the company's clock, whatever the reader's own.
 */
function sessionView({ rt }: Stores, req: Request, caller: Caller, csrf: string) {
  const visible = apiContext(rt, caller).visibleConnections();
  const zones = Object.fromEntries(visible.map((c) => [c.id, companyTimeZone(rt.config, c)]));
  const distinct = [...new Set(Object.values(zones))];
  return {
    name: caller.name,
    role: caller.role,
    companies: caller.companies ? [...caller.companies].sort() : null,
    csrf,
    locales: acceptedLocales(req.get('accept-language')),
    zone: distinct.length === 1 ? distinct[0]! : (rt.config.billing.timeZone ?? 'UTC'),
    zones,
    /** The zone a reconciliation's days are in (`reconcile.timeZone`): what its form's "today" is. */
    reconcileZone: rt.config.reconcile.timeZone,
  };
}

type Handler = (req: Request, res: Response) => Promise<unknown>;
const handled =
  (h: Handler): express.RequestHandler =>
  (req, res, next) =>
    void h(req, res).catch(next);

/** `GET /console/session`: who is signed in and the session's CSRF token, or 401. */
const whoIsSignedIn =
  (stores: Stores): Handler =>
  async (req, res) => {
    const { rt, sessions } = stores;
    const id = cookieOf(req, CONSOLE_COOKIE);
    const found = id ? await sessionOf(unexpiredTokens(rt.config.http), sessions, id) : undefined;
    secured(res);
    if (!found) return refuse(res, 401, 'UNAUTHORIZED', 'not signed in');
    res.json(sessionView(stores, req, found.caller, found.session.csrf));
  };

/** `POST /console/session` `{"token"}`: rate-limited per address, audited, then the session and its cookie. */
const signIn =
  (stores: Stores): Handler =>
  async (req, res) => {
    const { rt, sessions, guard, audit } = stores;
    secured(res);
    const http = rt.config.http;
    if (!sameOrigin(req, http)) return refuse(res, 403, 'FORBIDDEN', 'sign in from the console page of this origin');
    const from = { peer: req.socket.remoteAddress, forwardedFor: req.get('x-forwarded-for') };
    const address = guard.addressOf(from);
    const token = typeof req.body?.token === 'string' ? req.body.token.trim() : '';
    const caller = token ? callerOf(unexpiredTokens(http), token) : undefined;
    const limited = await guard.judge('console-sign-in', from, caller !== undefined);
    if (!limited.allowed) {
      res.set('retry-after', String(limited.retryAfterSeconds));
      const wait = `too many sign-in attempts: try again in ${limited.retryAfterSeconds} s`;
      return refuse(res, 429, 'TOO_MANY_REQUESTS', wait);
    }
    const entry = { action: 'console.sign-in', detail: `from ${address}` };
    if (!caller) {
      await audit.refusals.record('sign-in', address, { ...entry, who: '-', outcome: 'refused', status: 401 });
      return refuse(res, 401, 'UNAUTHORIZED', 'that token is not one of http.tokens');
    }
    // The same audited() path as every action of the API and the command line, through the API's context.
    const { id, session } = await apiContext(rt, caller, 'console').act(
      { action: entry.action },
      () => sessions.open(caller.name, token),
      () => ({ status: 200, detail: entry.detail }),
    );
    res.set('set-cookie', sessionCookie(req, http, id, sessions.maxSeconds));
    res.json(sessionView(stores, req, caller, session.csrf));
  };

/** `POST /console/session/end`: with the session's CSRF header, ends it and clears the cookie. */
const signOut =
  ({ rt, sessions }: Stores): Handler =>
  async (req, res) => {
    secured(res);
    const id = cookieOf(req, CONSOLE_COOKIE);
    const found = id ? await sessionOf(rt.config.http, sessions, id) : undefined;
    if (!found || !csrfMatches(req, id!))
      return refuse(res, 403, 'FORBIDDEN', `signing out needs the session and its ${CSRF_HEADER} header`);
    await sessions.close(id!);
    res.set('set-cookie', sessionCookie(req, rt.config.http, '', 0));
    res.status(204).end();
  };

/**
 * The console at /console: its static pages and the session routes (docs/console.md). Everything it
 * shows and does goes through the API at /api/v1 with the session cookie (api/auth.ts).
 */
export function consoleApp(rt: Runtime): express.Router {
  const stores: Stores = { rt, sessions: rt.consoleSessions, guard: credentialGuardOf(rt), audit: rt.audit };
  const router = express.Router({ caseSensitive: true, strict: true });
  // /console and /console/ reach here alike: the page's relative links need the slash.
  router.get('/', (req, res) =>
    req.originalUrl.split('?')[0] === '/console'
      ? res.redirect(303, '/console/')
      : secured(res).sendFile('index.html', { root: CONSOLE_ASSETS }),
  );
  router.use('/assets', express.static(CONSOLE_ASSETS, { index: false, maxAge: 0 }));
  // The vendor's redirect after a consent (http.publicUrl + /console/oauth/callback): the page's script
  // finishes it through the API with the session (console/assets/connect-page.js). A cross-site redirect
  // carries no SameSite=Strict cookie, so this answer only hands the query to the page.
  router.get('/oauth/callback', (req, res) => {
    const query = req.originalUrl.split('?')[1] ?? '';
    if (query.length > 8192) return refuse(secured(res), 414, 'URI_TOO_LONG', 'that callback address is too long');
    secured(res).redirect(303, `/console/#/oauth-callback?${query}`);
  });
  router.get('/session', handled(whoIsSignedIn(stores)));
  router.post('/session', express.json({ limit: '4kb' }), handled(signIn(stores)));
  router.post('/session/end', handled(signOut(stores)));
  router.use((req, res) => refuse(secured(res), 404, 'NOT_FOUND', `no console page ${req.originalUrl.split('?')[0]}`));
  return router;
}

/** The worker's extra routes with the console at /console in front of `others`. */
export function withConsole(rt: Runtime, others: Express): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('strict routing', true);
  app.use('/console', consoleApp(rt));
  app.use(others);
  return app;
}
