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

const internalError: ErrorRequestHandler = (err: Error, _req, res, _next) => {
  if (!res.headersSent) res.status(500).json({ error: 'INTERNAL', message: err.message });
  else res.end();
};

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
  app.use(internalError);
  return app;
}

/**
 * /metrics (Prometheus text), /healthz (the process answers), /readyz (it can do its work), /runbook
 * (the operations guide the alerts link to). A port in
 * use (or out of range, or a host not of this machine) rejects with a ListenError.
 */
export async function startHttpServer(
  options: HttpServerOptions,
): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const server = createServer(httpApp(options));
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
