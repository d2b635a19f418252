import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { listen } from '../http/listen.js';
import type { Metrics } from '../observability/metrics.js';
import { within } from '../observability/within.js';
import { withoutFutureTimes } from './delivery-time.js';
import { BodyTooLargeError, readBody } from './read-body.js';
import { routeDelivery } from './route-delivery.js';
import type { WebhookEvent } from './webhook-event.js';
import { verifiedTargets, type WebhookTarget } from './webhook-target.js';

/** How long a delivery waits for Redis before it is answered 503 (QuickBooks wants an answer within 3 s). */
export const DURABLE_WITHIN_MS = 2_000;

export interface WebhookListenerOptions {
  port: number;
  host: string;
  maxBodyBytes: number;
  /** The connections receiving webhooks, read at each delivery (a config reload changes them). */
  targets(): readonly WebhookTarget[];
  /**
   * Makes one connection's events durable in Redis and their targeted reads enqueued; resolves with how
   * many events were new (0: a replay). Rejects when Redis cannot take them.
   */
  accept(connectionId: string, events: WebhookEvent[]): Promise<{ fresh: number }>;
  metrics: Pick<Metrics, 'webhookDeliveries' | 'webhookLastDelivery'>;
  logger: Logger;
}

export interface WebhookListener {
  url: string;
  server: Server;
  /**
   * Stops taking deliveries: those being answered finish, any other is answered 503 (the vendor retries), and
   * every connection ends after its answer. Idempotent.
   */
  close(): Promise<void>;
}

type Answer = { status: number; result?: 'accepted' | 'bad_signature' | 'unrouted' | 'malformed' | 'duplicate' };

/**
 * The webhook ingress, on a port of its own: `POST /webhooks/xero`, `/webhooks/quickbooks`,
 * `/webhooks/zoho-books/<connection>`. Each delivery is verified on its raw bytes against every distinct
 * configured secret before anything of it is parsed, and answered 2xx only once its events are durable
 * in Redis (503 when Redis does not take them, so the vendor retries). No vendor or billing call is made
 * here; no body and no header value is logged.
 */
export async function startWebhookListener(o: WebhookListenerOptions): Promise<WebhookListener> {
  let closing: Promise<void> | undefined;
  const server = createServer((req, res) => {
    // Once stopping, a delivery is refused before it is read (the vendor sends it again), and every answer
    // ends its connection: a vendor sending steadily over a kept-alive connection would otherwise keep the
    // server open past the worker's grace period (server.close() waits for every connection to end).
    if (closing) {
      req.resume();
      respond(res, { status: 503 }, true);
      return;
    }
    void handle(o, req)
      .catch((err: unknown) => {
        o.logger.error({ err: { message: (err as Error).message } }, 'webhook delivery could not be handled');
        return { status: 500 } as Answer;
      })
      .then((answer) => respond(res, answer, closing !== undefined));
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await listen(server, o.port, o.host);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : o.port;
  return {
    url: `http://${o.host.includes(':') ? `[${o.host}]` : o.host}:${port}`,
    server,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      })),
  };
}

function respond(res: ServerResponse, answer: Answer, lastOnConnection: boolean): void {
  if (res.headersSent) return;
  // No body, no cookies: what Xero's intent-to-receive asks of every answer.
  res.writeHead(answer.status, { 'content-length': '0', ...(lastOnConnection ? { connection: 'close' } : {}) });
  res.end();
}

async function handle(o: WebhookListenerOptions, req: IncomingMessage): Promise<Answer> {
  const url = new URL(req.url ?? '/', 'http://webhooks');
  const [root, path, connection, ...rest] = url.pathname.split('/').filter(Boolean);
  if (root !== 'webhooks' || !path || rest.length) return { status: 404 };
  const ofVendor = o.targets().filter((t) => t.webhooks.path === path);
  if (!ofVendor.length) return { status: 404 };
  if (req.method !== 'POST') return { status: 405 };
  const routedBy = ofVendor[0]!.webhooks.routedBy;
  if ((routedBy === 'connection') !== (connection !== undefined)) return { status: 404 };
  const system = ofVendor[0]!.system;
  const count = (a: Answer): Answer => {
    if (a.result) o.metrics.webhookDeliveries.inc({ system, result: a.result });
    return a;
  };
  let body: Buffer;
  try {
    body = await readBody(req, o.maxBodyBytes);
  } catch (e) {
    if (e instanceof BodyTooLargeError) return count({ status: 413, result: 'malformed' });
    throw e;
  }
  // An unknown connection in the address has no secret to verify against: refused like a bad signature.
  const candidates = routedBy === 'connection' ? ofVendor.filter((t) => t.connectionId === connection) : ofVendor;
  const verified = verifiedTargets(candidates, (t) => safely(() => t.webhooks.verify(body, req.headers, t.secret)));
  if (!verified.length) {
    o.logger.warn({ system, path: url.pathname }, 'webhook delivery refused: no configured secret verifies it');
    return count({ status: 401, result: 'bad_signature' });
  }
  let parsed;
  try {
    parsed = verified[0]!.webhooks.parse(body, url.searchParams);
  } catch (e) {
    o.logger.warn({ system, reason: (e as Error).message }, 'webhook delivery refused: malformed');
    return count({ status: 400, result: 'malformed' });
  }
  if (parsed.kind === 'intent') return count({ status: 200, result: 'accepted' });
  const { events, ignored } = withoutFutureTimes(parsed.events, Date.now());
  if (ignored)
    o.logger.warn({ system, ignored }, 'webhook event times in the future ignored; the records are read anyway');
  return count(await deliver(o, system, events, verified));
}

/** Routes the events and makes them durable: 200 once every connection's are, 503 if Redis does not take them. */
async function deliver(
  o: WebhookListenerOptions,
  system: string,
  events: WebhookEvent[],
  verified: WebhookTarget[],
): Promise<Answer> {
  const { byConnection, unrouted } = routeDelivery(events, verified);
  if (unrouted) o.logger.info({ system, unrouted }, 'webhook events for an organisation no connection holds');
  if (!byConnection.size) return { status: 200, result: unrouted ? 'unrouted' : 'accepted' };
  let fresh = 0;
  try {
    for (const [connectionId, list] of byConnection) {
      fresh += (await within(DURABLE_WITHIN_MS, 'Redis', o.accept(connectionId, list))).fresh;
      o.metrics.webhookLastDelivery.set({ connection: connectionId }, Date.now() / 1000);
    }
  } catch (err) {
    o.logger.warn({ system, err: { message: (err as Error).message } }, 'webhook delivery not stored: answered 503');
    return { status: 503 };
  }
  return { status: 200, result: fresh ? 'accepted' : 'duplicate' };
}

/** A verifier that throws counts as not verifying (it never should). */
function safely(verify: () => boolean): boolean {
  try {
    return verify();
  } catch {
    return false;
  }
}
