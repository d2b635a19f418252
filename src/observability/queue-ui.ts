import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';

/**
 * The queue UI (Bull Board) at /admin/queues on the worker's own HTTP server, behind the admin token.
 *
 * - No `http.adminToken` configured: the UI is off and /admin/queues answers 404 like any unknown route.
 * - `Authorization: Bearer <token>` on any request (scripts, a reverse proxy that injects it), or
 * - `GET /admin/queues?token=<token>` once in a browser: sets an HttpOnly, SameSite=Strict session cookie
 *   scoped to /admin/queues (an HMAC of the token, not the token) and redirects to the same URL without
 *   the token, so it does not linger in the address bar or history.
 * - Anything else: 401 with `WWW-Authenticate: Bearer`. Every comparison is constant-time.
 *
 * Read-only by default: the completed set of the upsert queue is its job-id dedup window, and failed
 * records are replayed with `erp-sync dlq` (which goes through quarantine), so the UI shows and does not
 * act. Pass `readOnly: false` to allow retry/clean/pause from the UI.
 */
export interface QueueUiOptions {
  queues: readonly Queue[];
  /** `http.adminToken`; undefined or empty turns the UI off. */
  adminToken?: string;
  /** Mount point; default /admin/queues. */
  basePath?: string;
  /** Default true. */
  readOnly?: boolean;
}

export const QUEUE_UI_PATH = '/admin/queues';
export const QUEUE_UI_COOKIE = 'erpsync_queue_ui';

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean> | boolean;
type ExpressLike = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
/** Constant-time string equality (hashing first makes the lengths equal, so length leaks nothing either). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/** The cookie value for a token: derived, so the cookie jar never holds the token itself. */
export function sessionValue(token: string): string {
  return createHmac('sha256', token).update('erp-sync queue-ui session v1').digest('base64url');
}

function bearer(req: IncomingMessage): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(h.trim());
  return m?.[1]?.trim();
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function isHttps(req: IncomingMessage): boolean {
  const proto = req.headers['x-forwarded-proto'];
  return (req.socket as { encrypted?: boolean }).encrypted === true || (typeof proto === 'string' && proto.split(',')[0]?.trim() === 'https');
}

function unauthorized(res: ServerResponse): void {
  res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="erp-sync admin"', 'cache-control': 'no-store' });
  res.end(
    JSON.stringify({ error: 'UNAUTHORIZED', message: 'send Authorization: Bearer <http.adminToken>, or open /admin/queues?token=<http.adminToken> once' }),
  );
}

/** The `extra` route handler for startHttpServer. */
export function queueUi(options: QueueUiOptions): Handler {
  const base = (options.basePath ?? QUEUE_UI_PATH).replace(/\/+$/, '');
  const token = options.adminToken || undefined;
  const expectedSession = token ? sessionValue(token) : undefined;
  let app: ExpressLike | undefined;

  const board = (): ExpressLike => {
    if (app) return app;
    const adapter = new ExpressAdapter();
    adapter.setBasePath(base);
    createBullBoard({
      queues: options.queues.map((q) => new BullMQAdapter(q, { readOnlyMode: options.readOnly ?? true })),
      serverAdapter: adapter,
      options: { uiConfig: { boardTitle: 'erp-sync queues' } },
    });
    app = adapter.getRouter() as ExpressLike;
    return app;
  };

  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== base && !url.pathname.startsWith(`${base}/`)) return false;
    if (!token || !expectedSession) return false; // off: the server answers 404

    const presented = bearer(req);
    const session = cookie(req, QUEUE_UI_COOKIE);
    const queryToken = url.searchParams.get('token');
    let ok = false;
    if (presented !== undefined) ok = safeEqual(presented, token);
    else if (session !== undefined && safeEqual(session, expectedSession)) ok = true;
    if (!ok && presented === undefined && queryToken !== null && req.method === 'GET') {
      if (!safeEqual(queryToken, token)) {
        unauthorized(res);
        return true;
      }
      url.searchParams.delete('token');
      const attrs = [`${QUEUE_UI_COOKIE}=${expectedSession}`, `Path=${base}`, 'HttpOnly', 'SameSite=Strict', 'Max-Age=43200'];
      if (isHttps(req)) attrs.push('Secure');
      res.writeHead(303, { location: `${url.pathname}${url.search}`, 'set-cookie': attrs.join('; '), 'cache-control': 'no-store' });
      res.end();
      return true;
    }
    if (!ok) {
      unauthorized(res);
      return true;
    }

    // Hand the request to Bull Board's express app as if it were mounted at `base`.
    const handler = board();
    (req as IncomingMessage & { originalUrl?: string }).originalUrl = req.url;
    const rest = (req.url ?? '/').slice(base.length);
    req.url = rest === '' || rest.startsWith('?') ? `/${rest}` : rest;
    await new Promise<void>((resolve) => {
      res.once('finish', resolve);
      res.once('close', resolve);
      handler(req, res, (err) => {
        if (!res.headersSent) {
          res.writeHead(err ? 500 : 404, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify(
              err ? { error: 'INTERNAL', message: 'queue UI error' } : { error: 'NOT_FOUND', message: `no route ${req.method} ${base}${req.url}` },
            ),
          );
        }
        resolve();
      });
    });
    return true;
  };
}
