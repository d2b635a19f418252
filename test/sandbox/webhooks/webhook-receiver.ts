import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One delivery as the receiver saw it. */
export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  raw: string;
  body: unknown;
  status: number;
}

/**
 * A receiver on loopback that answers each delivery with `answer(delivery, n)` (default 200) and lets a
 * test wait for the n-th delivery: events, not sleeps.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  answer: (r: Omit<Received, 'status'>, index: number) => number = () => 200;
  private waiters: Array<{ n: number; resolve: () => void }> = [];
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(raw);
        } catch {
          body = undefined;
        }
        const r = { path: req.url ?? '', headers: req.headers, raw, body };
        const status = this.answer(r, this.received.length);
        this.received.push({ ...r, status });
        res.writeHead(status).end();
        this.waiters = this.waiters.filter((w) => (this.received.length >= w.n ? (w.resolve(), false) : true));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Resolves once `n` deliveries have arrived in all. */
  until(n: number): Promise<void> {
    if (this.received.length >= n) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ n, resolve }));
  }

  reset(): void {
    this.received.length = 0;
    this.answer = () => 200;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The vendors' documented check: base64 HMAC-SHA256 of the raw body, compared in constant time. */
export function validHmac(raw: string, header: string | string[] | undefined, key: string): boolean {
  if (typeof header !== 'string') return false;
  const expected = createHmac('sha256', key).update(raw, 'utf8').digest();
  const given = Buffer.from(header, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** POSTs JSON to an emulator's admin route. */
export async function admin(base: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, {
    method: body === undefined && path === '/__admin/webhooks' ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}
