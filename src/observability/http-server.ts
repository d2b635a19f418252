import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { listen } from '../http/listen.js';

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
  /** Extra routes (e.g. the queue UI at /admin/queues). Return true when handled. */
  extra?: (req: IncomingMessage, res: ServerResponse) => Promise<boolean> | boolean;
}

/**
 * /metrics (Prometheus text), /healthz (the process answers), /readyz (it can do its work). A port in
 * use (or out of range, or a host not of this machine) rejects with a ListenError.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    try {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (req.method === 'GET' && path === '/metrics') {
        await options.collect?.().catch(() => {});
        const text = await options.registry.metrics();
        res.writeHead(200, { 'content-type': options.registry.contentType });
        res.end(text);
        return;
      }
      if (req.method === 'GET' && path === '/healthz') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: true }));
        return;
      }
      if (req.method === 'GET' && path === '/readyz') {
        const r = await options.ready().catch((e: Error) => ({ ok: false, checks: { ready: { ok: false, detail: e.message } } }));
        res.writeHead(r.ok ? 200 : 503, { 'content-type': 'application/json' });
        res.end(JSON.stringify(r));
        return;
      }
      if (options.extra && (await options.extra(req, res))) return;
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'NOT_FOUND', message: `no route ${req.method} ${path}` }));
    } catch (e) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'INTERNAL', message: (e as Error).message }));
    }
  });
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
