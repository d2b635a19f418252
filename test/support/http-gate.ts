import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HttpGate {
  /** The gate's URL: point a client here instead of at the target. */
  url: string;
  /** From now on, requests that `match` (default: every POST) wait at the gate instead of reaching the target. */
  hold(match?: (req: IncomingMessage) => boolean): void;
  /** Lets every waiting request through (whose client is still there) and passes all later ones straight on. */
  release(): void;
  /** How many requests wait at the gate now (a dead client's request leaves as its connection closes). */
  held(): number;
  /** The bodies (parsed JSON) of the requests waiting at the gate now whose body has arrived in full. */
  heldBodies(): unknown[];
  close(): Promise<void>;
}

/**
 * A loopback HTTP proxy in front of `target()` that can hold requests for as long as a test wants: a
 * request is in flight for exactly as long as the test says, not for a latency that a loaded machine
 * may outlast. A held request whose client goes away (a killed worker) is dropped, never forwarded: what
 * a dead process was sending never reaches the target. A held request's body is read at the gate, so a
 * test can see which records are held (a request held at the gate is one its client is blocked on).
 */
export async function startHttpGate(target: () => string): Promise<HttpGate> {
  let match: ((req: IncomingMessage) => boolean) | undefined;
  const waiting = new Map<() => void, { body?: Buffer }>();
  const forward = (req: IncomingMessage, res: ServerResponse, body?: Buffer) => {
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
    if (body) upstream.end(body);
    else req.pipe(upstream);
  };
  const server = createServer((req, res) => {
    if (!match?.(req)) return forward(req, res);
    const entry: { body?: Buffer } = {};
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => (entry.body = Buffer.concat(chunks)));
    const go = () => {
      waiting.delete(go);
      if (entry.body) forward(req, res, entry.body);
      else req.once('end', () => forward(req, res, entry.body));
    };
    waiting.set(go, entry);
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
      for (const go of [...waiting.keys()]) go();
    },
    held: () => waiting.size,
    heldBodies: () =>
      [...waiting.values()].flatMap((e) => (e.body ? [JSON.parse(e.body.toString('utf8')) as unknown] : [])),
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}
