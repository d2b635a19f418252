import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type Express, type RequestHandler, type Router } from 'express';
import type { Registry } from 'prom-client';
import { listen } from '../http/listen.js';
import { runbookPage } from './runbook-page.js';
import { within } from './within.js';

export interface ReadyCheck {
  ok: boolean;
  checks: Record<string, { ok: boolean; detail?: string }>;
}

export interface HttpServerOptions {
  port: number;
  host: string;
  registry: Registry;
  /** Refreshes gauges read on scrape (queue depths, quarantine sizes, Redis memory). */
  collect?: () => Promise<void>;
  /** Redis reachable, eviction policy safe, workers running. */
  ready: () => Promise<ReadyCheck>;
  /** More routes, mounted after ours (e.g. the queue UI at /admin/queues); what it passes on answers 404. */
  extra?: Express | Router;
  /** Where an unexpected error of a route is logged (the answer is 500 without its message). */
  logger?: { error(obj: object, msg: string): void };
}

/**
 * /readyz answers within this, whatever its checks wait for: inside Kubernetes' default probe timeout
 * (1 s), so a probe gets a 503 it can act on instead of a timeout. The checks bound their own Redis
 * calls tighter (app/service.ts) and name what failed; this is the backstop.
 */
export const READY_TIMEOUT_MS = 800;

const notFound: RequestHandler = (req, res) => {
  res.status(404).json({ error: 'NOT_FOUND', message: `no route ${req.method} ${req.path}` });
};

/**
 * Errors of the routes outside the API (the console's sign-in, the queue UI): a request that could not be
 * read (malformed JSON 400, too large 413, a charset or encoding not read 415: a body reader's `expose`d
 * 4xx) answers its status in our words; anything else 500 without its message (it may repeat the request
 * or name internals), logged when a logger is given.
 */
const internalError =
  (logger?: HttpServerOptions['logger']): ErrorRequestHandler =>
  (err: { status?: number; expose?: boolean; type?: string }, req, res, _next) => {
    if (res.headersSent) return void res.end();
    const status = typeof err?.status === 'number' ? err.status : 500;
    if (err?.expose && status >= 400 && status < 500) return void res.status(status).json(unreadable(status, err.type));
    logger?.error({ err, path: req.path }, 'HTTP request failed');
    res.status(500).json({ error: 'INTERNAL', message: 'internal error (see the worker log)' });
  };

function unreadable(status: number, type: string | undefined): { error: string; message: string } {
  if (type === 'entity.parse.failed') return { error: 'BAD_REQUEST', message: 'the body is not valid JSON' };
  if (status === 413) return { error: 'TOO_LARGE', message: 'the body is too large' };
  if (status === 415) return { error: 'UNSUPPORTED_MEDIA_TYPE', message: 'send the body as JSON in UTF-8' };
  return { error: 'BAD_REQUEST', message: 'the request could not be read' };
}

/** The routes: ours first, then `extra`, then 404 for anything left. */
function httpApp(options: Omit<HttpServerOptions, 'port' | 'host'>): Express {
  const app = express();
  // Paths match exactly, as scrapers and probes are configured with them: /Metrics and /metrics/ are not /metrics.
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.set('etag', false);
  app.disable('x-powered-by');

  app.get('/metrics', async (_req, res) => {
    await options.collect?.().catch(() => {});
    const text = await options.registry.metrics();
    // Set on the raw response: Express would reorder the parameters of prom-client's content type.
    res.statusCode = 200;
    res.setHeader('content-type', options.registry.contentType);
    res.end(text);
  });
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/readyz', async (_req, res) => {
    const r: ReadyCheck = await within(READY_TIMEOUT_MS, 'readiness checks', options.ready()).catch((e: Error) => ({
      ok: false,
      checks: { ready: { ok: false, detail: e.message } },
    }));
    res.status(r.ok ? 200 : 503).json(r);
  });
  // What the alerts' runbook_url opens (ops/prometheus/rules): the operations guide of this build.
  app.get('/runbook', (_req, res) => {
    res.type('html').send(runbookPage());
  });
  if (options.extra) app.use(options.extra);
  app.use(notFound);
  app.use(internalError(options.logger));
  return app;
}

/** How long an idle kept-alive connection stays open (Node's default is 5 s). */
export const KEEP_ALIVE_MS = 65_000;

/**
 * /metrics (Prometheus text), /healthz (the process answers), /readyz (it can do its work), /runbook
 * (the operations guide the alerts link to). A port in
 * use (or out of range, or a host not of this machine) rejects with a ListenError.
 */
export async function startHttpServer(
  options: HttpServerOptions,
): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const server = createServer(httpApp(options));
  // Node closes an idle kept-alive connection after 5 s; a client (a browser, a proxy, fetch) that sends its
  // next request on it as it closes gets ECONNRESET. Keeping idle connections longer than the 60 s idle
  // timeout of common proxies and load balancers leaves closing them to the client, which cannot race itself.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  await listen(server, options.port, options.host);
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://${options.host === '0.0.0.0' ? '127.0.0.1' : options.host}:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
