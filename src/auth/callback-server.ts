import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listen } from '../http/listen.js';

/** What the browser is shown once the callback arrived. */
export interface CallbackPage {
  status: number;
  title: string;
  message: string;
}

export interface CallbackServer {
  /** The port it listens on (the one asked for, or the free one picked for 0). */
  port: number;
  /** The query parameters of the first request to the callback path. */
  callback: Promise<URLSearchParams>;
  close(): Promise<void>;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The loopback end of an OAuth redirect (RFC 8252 §7.3, https://datatracker.ietf.org/doc/html/rfc8252#section-7.3):
 * an HTTP server on 127.0.0.1 that waits for the browser to come back to `path` with the authorization
 * response. The first request to that path settles `callback`; the browser gets a short page saying what
 * happened (`page`). Other paths answer 404 (a browser asks for /favicon.ico).
 */
export async function startCallbackServer(options: {
  port: number;
  host?: string;
  path: string;
  page: (params: URLSearchParams) => CallbackPage;
}): Promise<CallbackServer> {
  let settle!: (params: URLSearchParams) => void;
  const callback = new Promise<URLSearchParams>((resolve) => (settle = resolve));
  let done = false;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== options.path || done) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
      res.end(done ? 'This authorisation has already been handled.\n' : 'Not found\n');
      return;
    }
    done = true;
    const page = options.page(url.searchParams);
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>${escape(page.title)}</title></head><body><h1>${escape(page.title)}</h1><p>${escape(page.message)}</p></body></html>`;
    res.writeHead(page.status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'close',
    });
    res.end(html, () => settle(url.searchParams));
  });
  const host = options.host ?? '127.0.0.1';
  await listen(server, options.port, host);
  return {
    port: (server.address() as AddressInfo).port,
    callback,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
