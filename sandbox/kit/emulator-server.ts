import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { FaultInjector } from './faults.js';
import { Journal } from './journal.js';
import { Router, type RouteResult } from './router.js';

export interface EmulatorServerOptions {
  name: string;
  /** Vendor routes: fault injection and journal apply. */
  router: Router;
  /** Admin routes (`/__admin/...`): never faulted, never journaled. */
  admin?: Router;
  faults?: FaultInjector;
  journal?: Journal;
  /** Maximum request body, bytes; larger answers `tooLarge()`. */
  bodyLimitBytes?: number;
  /** Which key the request presented, for the journal. */
  keyOf?: (req: IncomingMessage) => string | undefined;
  /** Vendor-shaped bodies for the generic failures. */
  errors: {
    notFound(path: string): RouteResult;
    methodNotAllowed(method: string, path: string): RouteResult;
    tooLarge(limit: number): RouteResult;
    badJson(message: string): RouteResult;
    injected(status: number, reason: string, retryAfterSeconds?: number): RouteResult;
    internal(message: string): RouteResult;
  };
}

export interface RunningEmulator {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function write(res: ServerResponse, result: RouteResult): void {
  const headers: Record<string, string> = { ...(result.headers ?? {}) };
  let payload = '';
  if (result.text !== undefined) {
    payload = result.text;
    headers['content-type'] ??= 'text/plain; charset=utf-8';
  } else if (result.body !== undefined) {
    payload = JSON.stringify(result.body);
    headers['content-type'] ??= 'application/json; charset=utf-8';
  }
  headers['content-length'] = String(Buffer.byteLength(payload));
  res.writeHead(result.status, headers);
  res.end(payload);
}

/**
 * Starts an emulator on loopback. Port 0 picks a free port; a port in use (or a host not of this machine)
 * rejects with Node's own listen error (`code` EADDRINUSE, EACCES, ERR_SOCKET_BAD_PORT, EADDRNOTAVAIL...).
 */
export async function startEmulatorServer(
  options: EmulatorServerOptions,
  port = 0,
  host = '127.0.0.1',
): Promise<RunningEmulator> {
  const limit = options.bodyLimitBytes ?? 1024 * 1024;
  const journal = options.journal;
  const server = createServer(async (req, res) => {
    const started = Date.now();
    const url = new URL(req.url ?? '/', 'http://emulator');
    const method = (req.method ?? 'GET').toUpperCase();
    const isAdmin = url.pathname.startsWith('/__admin');
    let rawBody = '';
    let result: RouteResult;
    try {
      try {
        rawBody = await readBody(req, limit);
      } catch (e) {
        if (e instanceof BodyTooLarge) {
          result = options.errors.tooLarge(limit);
          res.setHeader('connection', 'close');
          write(res, result);
          if (!isAdmin)
            journal?.record({
              method,
              path: url.pathname,
              key: options.keyOf?.(req),
              status: result.status,
              durationMs: Date.now() - started,
              rawBody: '',
            });
          return;
        }
        throw e;
      }
      if (!isAdmin && options.faults) {
        const d = options.faults.decide(options.keyOf?.(req));
        if (d.delayMs > 0) await sleep(d.delayMs);
        if (d.kind === 'reset') {
          req.socket.destroy();
          journal?.record({
            method,
            path: url.pathname,
            key: options.keyOf?.(req),
            status: 0,
            durationMs: Date.now() - started,
            rawBody,
          });
          return;
        }
        if (d.kind === 'status') {
          result = options.errors.injected(d.status, d.reason, d.retryAfterSeconds);
          write(res, result);
          journal?.record({
            method,
            path: url.pathname,
            key: options.keyOf?.(req),
            status: result.status,
            durationMs: Date.now() - started,
            rawBody,
          });
          return;
        }
      }
      const router = isAdmin ? options.admin : options.router;
      const found = router?.match(method, url.pathname) ?? { allowed: [] };
      if ('allowed' in found) {
        result = found.allowed.length
          ? options.errors.methodNotAllowed(method, url.pathname)
          : options.errors.notFound(url.pathname);
      } else {
        let body: unknown;
        const type = String(req.headers['content-type'] ?? '');
        if (rawBody.length > 0 && (type === '' || type.includes('json'))) {
          try {
            body = JSON.parse(rawBody);
          } catch (e) {
            result = options.errors.badJson((e as Error).message);
            write(res, result);
            if (!isAdmin)
              journal?.record({
                method,
                path: url.pathname,
                key: options.keyOf?.(req),
                status: result.status,
                durationMs: Date.now() - started,
                rawBody,
              });
            return;
          }
        } else if (rawBody.length > 0) body = rawBody;
        result = await found.handler({
          method,
          path: url.pathname,
          params: found.params,
          query: url.searchParams,
          headers: req.headers,
          body,
          rawBody,
          req,
          res,
        });
      }
    } catch (e) {
      result = options.errors.internal((e as Error).message);
    }
    if (!res.headersSent && !res.destroyed) write(res, result);
    if (!isAdmin)
      journal?.record({
        method,
        path: url.pathname,
        key: options.keyOf?.(req),
        status: result.status,
        durationMs: Date.now() - started,
        rawBody,
      });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // An out-of-range port throws here (ERR_SOCKET_BAD_PORT) instead of emitting 'error'.
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const url = `http://${host}:${address.port}`;
  return {
    url,
    port: address.port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
