import { request } from 'node:http';
import { createServer } from 'node:https';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTlsCertificates } from '../../support/tls-certificates.js';

/** A TLS-terminating reverse proxy on loopback, as a deployment puts in front of the console. */
export interface TlsProxy {
  /** `https://127.0.0.1:<port>`: what the browser opens (and http.publicUrl names). */
  url: string;
  /** Where to forward from now on: the worker's `http://127.0.0.1:<port>`. */
  forwardTo(target: string): void;
  close(): Promise<void>;
}

/**
 * An https server (a self-signed certificate of a throwaway CA, for 127.0.0.1) forwarding each request
 * over plain http to the worker, as nginx's `proxy_pass` does: the Host the browser sent kept,
 * `X-Forwarded-Proto: https` set, the peer appended to `X-Forwarded-For`. Started before the worker, so
 * its address can be the worker's `http.publicUrl`.
 */
export async function startTlsProxy(): Promise<TlsProxy> {
  const dir = await mkdtemp(join(tmpdir(), 'erp-sync-tls-proxy-'));
  const files = await createTlsCertificates(dir);
  const [cert, key] = await Promise.all([readFile(files.cert), readFile(files.key)]);
  let target: URL | undefined;
  const server = createServer({ cert, key }, (req, res) => {
    if (!target) return void res.writeHead(502).end('no upstream yet');
    const forwardedFor = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, 'x-forwarded-proto': 'https', 'x-forwarded-for': forwardedFor },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.headersSent || res.writeHead(502).end('upstream failed'));
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `https://127.0.0.1:${port}`,
    forwardTo: (t) => void (target = new URL(t)),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
