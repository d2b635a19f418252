import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HttpGate {
  /** The gate's URL: point a client here instead of at the target. */
  url: string;
  /** From now on, requests that `match` (default: every POST) wait at the gate instead of reaching the target. */
  hold(match?: (req: IncomingMessage) => boolean): void;
  /** Lets every waiting request through (whose client is still there) and passes all later ones straight on. */
  release(): void;
  /** How many requests wait at the gate now. */
  held(): number;
  close(): Promise<void>;
}

/**
 * A loopback HTTP proxy in front of `target()` that can hold requests for as long as a test wants: a
 * request is in flight for exactly as long as the test says, not for a latency that a loaded machine
 * may outlast. A held request whose client goes away (a killed worker) is dropped, never forwarded: what
 * a dead process was sending never reaches the target.
 */
export async function startHttpGate(target: () => string): Promise<HttpGate> {
  let match: ((req: IncomingMessage) => boolean) | undefined;
  const waiting = new Set<() => void>();
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const upstream = request(
      new URL(req.url ?? '/', target()),
      { method: req.method, headers: { ...req.headers, host: new URL(target()).host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  };
  const server = createServer((req, res) => {
    if (!match?.(req)) return forward(req, res);
    const go = () => {
      waiting.delete(go);
      forward(req, res);
    };
    waiting.add(go);
    res.on('close', () => waiting.delete(go));
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hold: (m = (req) => req.method === 'POST') => {
      match = m;
    },
    release: () => {
      match = undefined;
      for (const go of [...waiting]) go();
    },
    held: () => waiting.size,
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}
