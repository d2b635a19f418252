import { createHmac, randomBytes } from 'node:crypto';
import type { Queue } from 'bullmq';
import cookieParser from 'cookie-parser';
import type { CredentialGuard } from '../http/credential-guard.js';
import express, {
  type ErrorRequestHandler,
  type Express,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import { TrustedProxies } from '../http/client-address.js';
import { safeEqual } from '../http/safe-equal.js';

/**
 * The queue UI (Bull Board) at /admin/queues on the worker's own HTTP server, behind the admin token.
 *
 * - No `http.adminToken` configured: the UI is off and /admin/queues answers 404 like any unknown route.
 * - `Authorization: Bearer <token>` on any request (scripts, a reverse proxy that injects it), or
 * - `GET /admin/queues?token=<token>` once in a browser: sets an HttpOnly, SameSite=Strict session cookie
 *   scoped to /admin/queues and redirects to the same URL without the token, so it does not linger in the
 *   address bar or history. The cookie is a session of its own (when it was issued, a random id, and an
 *   HMAC of both under the token), never the token: it ends 12 hours after it was issued, or when the
 *   token changes. The cookie is `Secure` on HTTPS, and behind a proxy in `http.trustedProxies` that says
 *   so with X-Forwarded-Proto (from any other peer that header is ignored).
 * - Anything else: 401 with `WWW-Authenticate: Bearer`. Every comparison is constant-time.
 *
 * Read-only by default: failed records are replayed with `erp-sync dlq` (which goes through quarantine
 * and the in-flight index), so the UI shows and does not act. Pass `readOnly: false` to allow retry/clean/pause from the UI.
 */
export interface QueueUiOptions {
  queues: readonly Queue[];
  /** `http.adminToken`; undefined or empty turns the UI off. */
  adminToken?: string;
  /** Mount point; default /admin/queues. */
  basePath?: string;
  /** Default true. */
  readOnly?: boolean;
  /** `http.trustedProxies`, read at each request (a reload may change it): whose X-Forwarded-Proto is believed. */
  trustedProxies?: () => readonly string[];
  /** The clock sessions are issued and checked by (tests). @defaultValue Date.now */
  now?: () => number;
  /** Limits, counts and logs wrong tokens per client address, like the API's and the console's sign-in. @defaultValue none */
  guard?: CredentialGuard;
}

export const QUEUE_UI_PATH = '/admin/queues';
export const QUEUE_UI_COOKIE = 'erpsync_queue_ui';

/** How long a queue UI session lasts from its sign-in (the cookie's Max-Age too). */
export const QUEUE_UI_SESSION_SECONDS = 12 * 3600;

const sessionMac = (token: string, issuedAt: string, id: string) =>
  createHmac('sha256', token).update(`erp-sync queue-ui session v2|${issuedAt}|${id}`).digest('base64url');

/** A new session's cookie value: `<issued at, unix seconds>.<random id>.<HMAC of both under the token>`. */
export function newSessionValue(token: string, nowMs: number): string {
  const issuedAt = String(Math.floor(nowMs / 1000));
  const id = randomBytes(16).toString('base64url');
  return `${issuedAt}.${id}.${sessionMac(token, issuedAt, id)}`;
}

/** Whether a cookie value is a session issued under `token` less than QUEUE_UI_SESSION_SECONDS ago. */
export function validSession(value: string, token: string, nowMs: number): boolean {
  const [issuedAt, id, mac, more] = value.split('.');
  if (!issuedAt || !id || !mac || more !== undefined || !/^\d{1,12}$/.test(issuedAt)) return false;
  const age = nowMs / 1000 - Number(issuedAt);
  // A minute of clock skew between workers behind one address; nothing issued in the future beyond it.
  if (age < -60 || age >= QUEUE_UI_SESSION_SECONDS) return false;
  return safeEqual(mac, sessionMac(token, issuedAt, id));
}

/** Express's `trust proxy` from `http.trustedProxies` (re-read when the list changes): only those peers' X-Forwarded-* count. */
function trustProxies(list: () => readonly string[]): (address: string) => boolean {
  let seen: readonly string[] | undefined;
  let trusted = new TrustedProxies([]);
  return (address) => {
    const now = list();
    if (now !== seen) [seen, trusted] = [now, new TrustedProxies(now)];
    return trusted.has(address);
  };
}

/** The credentials of RFC 6750 section 2.1 (`Authorization: Bearer <token>`, scheme case-insensitive), if any. */
function bearer(req: Request): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(req.get('authorization')?.trim() ?? '')?.[1]?.trim();
}

/** The first `token` query parameter, if any (the simple query parser gives an array for repeats). */
function queryToken(req: Request): string | undefined {
  const t: unknown = req.query.token;
  const first = Array.isArray(t) ? t[0] : t;
  return typeof first === 'string' ? first : undefined;
}

function unauthorized(res: Response): void {
  res.status(401).set({ 'www-authenticate': 'Bearer realm="erp-sync admin"', 'cache-control': 'no-store' }).json({
    error: 'UNAUTHORIZED',
    message: 'send Authorization: Bearer <http.adminToken>, or open /admin/queues?token=<http.adminToken> once',
  });
}

/**
 * The admin token check in front of Bull Board: a bearer header decides alone; else the session cookie;
 * else a right `?token=` on a GET is traded for the cookie and a redirect to the URL without it. With
 * `guard`, a presented token (bearer or `?token=`) is judged first: a wrong one counts against its client
 * address, and past the limit every token from there answers 429 (the API's and sign-in's limit, shared).
 */
function authenticate(token: string, base: string, now: () => number, guard?: CredentialGuard): RequestHandler {
  const check = checkToken(token, base, now);
  if (!guard) return check;
  return (req, res, next) => {
    const presented = bearer(req) ?? (req.method === 'GET' ? queryToken(req) : undefined);
    if (presented === undefined) return check(req, res, next);
    const from = { peer: req.socket.remoteAddress, forwardedFor: req.get('x-forwarded-for') };
    guard.judge('queue-ui', from, safeEqual(presented, token)).then((verdict) => {
      if (verdict.allowed) return check(req, res, next);
      res.status(429).set({ 'retry-after': String(verdict.retryAfterSeconds), 'cache-control': 'no-store' });
      res.json({
        error: 'TOO_MANY_REQUESTS',
        message: `too many wrong tokens from this address: try again in ${verdict.retryAfterSeconds} s`,
      });
    }, next);
  };
}

/** The token itself: a bearer header decides alone; else the session cookie; else `?token=` traded for a session. */
function checkToken(token: string, base: string, now: () => number): RequestHandler {
  return (req, res, next) => {
    const presented = bearer(req);
    const session: unknown = req.cookies?.[QUEUE_UI_COOKIE];
    let ok = false;
    if (presented !== undefined) ok = safeEqual(presented, token);
    else if (typeof session === 'string' && validSession(session, token, now())) ok = true;
    const query = req.method === 'GET' ? queryToken(req) : undefined;
    if (!ok && presented === undefined && query !== undefined) {
      if (!safeEqual(query, token)) return unauthorized(res);
      const url = new URL(req.originalUrl, 'http://x');
      url.searchParams.delete('token');
      // `trust proxy` (set below) makes req.secure follow X-Forwarded-Proto from a trusted TLS-terminating proxy.
      res.cookie(QUEUE_UI_COOKIE, newSessionValue(token, now()), {
        path: base,
        httpOnly: true,
        sameSite: 'strict',
        maxAge: QUEUE_UI_SESSION_SECONDS * 1000,
        secure: req.secure,
      });
      res.set('cache-control', 'no-store').redirect(303, `${url.pathname}${url.search}`);
      return;
    }
    if (!ok) return unauthorized(res);
    next();
  };
}

/**
 * Bull Board's own Express app, its links and assets under `base`, loaded by the first request that passes
 * the token check: its modules cost a worker about 3 MiB of heap and 6 MiB of RSS (measured), which a
 * worker whose UI nobody opens need not carry.
 */
function lazyBoard(queues: readonly Queue[], base: string, readOnly: boolean): RequestHandler {
  let loading: Promise<Express> | undefined;
  return async (req, res, next) => {
    loading ??= board(queues, base, readOnly).catch((err: unknown) => {
      loading = undefined; // the next request tries again
      throw err;
    });
    (await loading)(req, res, next);
  };
}

async function board(queues: readonly Queue[], base: string, readOnly: boolean): Promise<Express> {
  const [{ createBullBoard }, { BullMQAdapter }, { ExpressAdapter }] = await Promise.all([
    import('@bull-board/api'),
    import('@bull-board/api/bullMQAdapter'),
    import('@bull-board/express'),
  ]);
  const adapter = new ExpressAdapter();
  adapter.setBasePath(base);
  createBullBoard({
    queues: queues.map((q) => new BullMQAdapter(q, { readOnlyMode: readOnly })),
    serverAdapter: adapter,
    options: { uiConfig: { boardTitle: 'erp-sync queues' } },
  });
  return adapter.getRouter() as Express;
}

/** Errors inside the UI answer with a fixed message: one from Bull Board or Redis may carry connection details. */
const uiError: ErrorRequestHandler = (_err, _req, res, _next) => {
  if (!res.headersSent) res.status(500).json({ error: 'INTERNAL', message: 'queue UI error' });
  else res.end();
};

/** The `extra` app for startHttpServer: Bull Board at `basePath` behind the admin token (nothing when off). */
export function queueUi(options: QueueUiOptions): Express {
  const base = (options.basePath ?? QUEUE_UI_PATH).replace(/\/+$/, '');
  const token = options.adminToken || undefined;
  const ui = express();
  ui.set('case sensitive routing', true);
  ui.set('trust proxy', trustProxies(options.trustedProxies ?? (() => [])));
  ui.disable('x-powered-by');
  if (!token) return ui; // off: every request passes on, and the server answers 404
  ui.use(
    base,
    cookieParser(),
    authenticate(token, base, options.now ?? Date.now, options.guard),
    lazyBoard(options.queues, base, options.readOnly ?? true),
    uiError,
  );
  return ui;
}
