import { fileURLToPath } from 'node:url';
import express, { type Express, type Request, type Response } from 'express';
import type { Runtime } from '../jobs/runtime.js';
import { CONSOLE_COOKIE, CSRF_HEADER, callerNamed, callerOf, cookieOf } from '../api/auth.js';
import { AuditLog } from '../src/pipeline/audit-log.js';
import { ConsoleSessions } from '../src/pipeline/console-sessions.js';
import { SignInLimiter } from '../src/pipeline/sign-in-limiter.js';

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

/** The cookie: the session id only, for the whole origin (the API's paths too), HttpOnly, SameSite=Strict. */
function sessionCookie(req: Request, value: string, maxAgeSeconds: number): string {
  const secure = req.get('x-forwarded-proto') === 'https' || req.secure ? '; Secure' : '';
  return `${CONSOLE_COOKIE}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`;
}

/** A sign-in must come from a page of this origin: JSON (no cross-site form can send it) and, when the browser names one, this Origin. */
function sameOrigin(req: Request): boolean {
  const origin = req.get('origin');
  return (
    req.is('application/json') === 'application/json' && (!origin || origin === `${req.protocol}://${req.get('host')}`)
  );
}

/**
 * The console at /console: its static pages and the session routes (docs/console.md). Everything it
 * shows and does goes through the API at /api/v1 with the session cookie (api/auth.ts).
 * - `GET /console/session`: who is signed in, and the CSRF token the pages send back (401 when nobody).
 * - `POST /console/session` `{"token"}`: signs in (rate-limited per client address), sets the cookie.
 * - `POST /console/session/end`: signs out (with the CSRF header).
 */
export function consoleApp(rt: Runtime): express.Router {
  const sessions = new ConsoleSessions(rt.redis, rt.config.redis.prefix);
  const limiter = new SignInLimiter(rt.redis, rt.config.redis.prefix);
  const audit = new AuditLog(rt.redis, rt.config.redis.prefix);
  const router = express.Router({ caseSensitive: true, strict: true });

  // /console and /console/ reach here alike: the page's relative links need the slash.
  router.get('/', (req, res) =>
    req.originalUrl.split('?')[0] === '/console'
      ? res.redirect(303, '/console/')
      : secured(res).sendFile('index.html', { root: CONSOLE_ASSETS }),
  );
  router.use('/assets', express.static(CONSOLE_ASSETS, { index: false, maxAge: 0 }));

  router.get('/session', async (req, res, next) => {
    try {
      const id = cookieOf(req, CONSOLE_COOKIE);
      const session = id ? await sessions.get(id) : undefined;
      const caller = session && callerNamed(rt.config.http, session.name);
      secured(res);
      if (!session || !caller) return refuse(res, 401, 'UNAUTHORIZED', 'not signed in');
      res.json({ name: caller.name, role: caller.role, csrf: session.csrf });
    } catch (e) {
      next(e);
    }
  });

  router.post('/session', express.json({ limit: '4kb' }), async (req, res, next) => {
    try {
      secured(res);
      if (!sameOrigin(req)) return refuse(res, 403, 'FORBIDDEN', 'sign in from the console page of this origin');
      const address = req.socket.remoteAddress ?? 'unknown';
      const limited = await limiter.attempt(address);
      if (!limited.allowed) {
        res.set('retry-after', String(limited.retryAfterSeconds));
        return refuse(
          res,
          429,
          'TOO_MANY_REQUESTS',
          `too many sign-in attempts: try again in ${limited.retryAfterSeconds} s`,
        );
      }
      const token = typeof req.body?.token === 'string' ? req.body.token.trim() : '';
      const caller = token ? callerOf(rt.config.http, token) : undefined;
      if (!caller) {
        await audit.append({
          who: '-',
          action: 'console.sign-in',
          outcome: 'refused',
          status: 401,
          detail: `from ${address}`,
        });
        return refuse(res, 401, 'UNAUTHORIZED', 'that token is not one of http.tokens');
      }
      const { id, session } = await sessions.open(caller.name);
      await audit.append({
        who: caller.name,
        action: 'console.sign-in',
        outcome: 'ok',
        status: 200,
        detail: `from ${address}`,
      });
      res.set('set-cookie', sessionCookie(req, id, sessions.ttlSeconds));
      res.json({ name: caller.name, role: caller.role, csrf: session.csrf });
    } catch (e) {
      next(e);
    }
  });

  router.post('/session/end', async (req, res, next) => {
    try {
      secured(res);
      const id = cookieOf(req, CONSOLE_COOKIE);
      const session = id ? await sessions.get(id) : undefined;
      if (!session || req.get(CSRF_HEADER) !== session.csrf)
        return refuse(res, 403, 'FORBIDDEN', `signing out needs the session and its ${CSRF_HEADER} header`);
      await sessions.close(id!);
      res.set('set-cookie', sessionCookie(req, '', 0));
      res.status(204).end();
    } catch (e) {
      next(e);
    }
  });
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
