import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { listen } from '../http/listen.js';
import type { Metrics } from '../observability/metrics.js';
import { within } from '../observability/within.js';
import { withoutFutureTimes } from './delivery-time.js';
import { BodyTooLargeError, readBody } from './read-body.js';
import { RefusalLog } from './refusal-log.js';
import { routeDelivery } from './route-delivery.js';
import type { WebhookEvent } from './webhook-event.js';
import { verifiedTargets, type WebhookTarget } from './webhook-target.js';

/** How long a delivery waits for Redis before it is answered 503 (QuickBooks wants an answer within 3 s). */
export const DURABLE_WITHIN_MS = 2_000;
/**
 * Bodies read at once before they are verified (Xero and QuickBooks sign the body, so it must be read first):
 * beyond, 503 without reading (the vendor retries). With the 1 MiB body cap, at most 32 MiB held for
 * unauthenticated senders.
 */
export const MAX_UNVERIFIED_BODIES = 32;
/** Open connections to the port; beyond, Node drops new ones (a vendor retries). */
export const MAX_WEBHOOK_CONNECTIONS = 256;

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
  /** @defaultValue MAX_UNVERIFIED_BODIES */
  maxUnverifiedBodies?: number;
  /** @defaultValue MAX_WEBHOOK_CONNECTIONS */
  maxConnections?: number;
  /** How often refused deliveries are summed up in the log. @defaultValue REFUSAL_LOG_EVERY_MS */
  refusalLogEveryMs?: number;
}

export interface WebhookListener {
  url: string;
  server: Server;
  /** Bodies being read now before they are verified. */
  readonly unverifiedBodies: number;
  /**
   * Stops taking deliveries: those being answered finish, any other is answered 503 (the vendor retries), and
   * every connection ends after its answer. Idempotent.
   */
  close(): Promise<void>;
}

type Answer = {
  status: number;
  result?: 'accepted' | 'bad_signature' | 'unrouted' | 'malformed' | 'duplicate' | 'overloaded';
  /** Why it was refused, our own words (never the delivery's), for the log. */
  why?: string;
  /** Answered before its body was read: the connection ends rather than carry the unread body. */
  unread?: boolean;
};

/** What every delivery shares: the bodies being read before verification, and the log of refusals. */
interface ListenerState {
  unverified: number;
  maxUnverified: number;
  refusals: RefusalLog;
}

/**
 * The webhook ingress, on a port of its own: `POST /webhooks/xero`, `/webhooks/quickbooks`,
 * `/webhooks/zoho-books/<connection>`. Each delivery is verified on its raw bytes against every distinct
 * configured secret before anything of it is parsed, and answered 2xx only once its events are durable
 * in Redis (503 when Redis does not take them, so the vendor retries). No vendor or billing call is made
 * here; no body and no header value is logged.
 */
export async function startWebhookListener(o: WebhookListenerOptions): Promise<WebhookListener> {
  let closing: Promise<void> | undefined;
  const state: ListenerState = {
    unverified: 0,
    maxUnverified: o.maxUnverifiedBodies ?? MAX_UNVERIFIED_BODIES,
    refusals: new RefusalLog(o.logger, o.refusalLogEveryMs),
  };
  const server = createServer((req, res) => {
    // Once stopping, a delivery is refused before it is read (the vendor sends it again), and every answer
    // ends its connection: a vendor sending steadily over a kept-alive connection would otherwise keep the
    // server open past the worker's grace period (server.close() waits for every connection to end).
    if (closing) {
      req.resume();
      respond(res, { status: 503 }, true);
      return;
    }
    void handle(o, state, req)
      .catch((err: unknown) => {
        o.logger.error({ err: { message: (err as Error).message } }, 'webhook delivery could not be handled');
        return { status: 500 } as Answer;
      })
      .then((answer) => respond(res, answer, closing !== undefined || answer.unread === true));
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.maxConnections = o.maxConnections ?? MAX_WEBHOOK_CONNECTIONS;
  await listen(server, o.port, o.host);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : o.port;
  return {
    url: `http://${o.host.includes(':') ? `[${o.host}]` : o.host}:${port}`,
    server,
    get unverifiedBodies() {
      return state.unverified;
    },
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        state.refusals.close();
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

async function handle(o: WebhookListenerOptions, state: ListenerState, req: IncomingMessage): Promise<Answer> {
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
    if (a.status !== 200 && a.result) state.refusals.note(system, a.result, a.why);
    return a;
  };
  // An unknown connection in the address has no secret to verify against: refused like a bad signature.
  const candidates = routedBy === 'connection' ? ofVendor.filter((t) => t.connectionId === connection) : ofVendor;
  const read = await readVerified(state, req, o.maxBodyBytes, candidates);
  if ('status' in read) return count(read);
  let parsed;
  try {
    parsed = read.verified[0]!.webhooks.parse(read.body, url.searchParams);
  } catch (e) {
    return count({ status: 400, result: 'malformed', why: (e as Error).message });
  }
  if (parsed.kind === 'intent') return count({ status: 200, result: 'accepted' });
  const { events, ignored } = withoutFutureTimes(parsed.events, Date.now());
  if (ignored)
    o.logger.warn({ system, ignored }, 'webhook event times in the future ignored; the records are read anyway');
  return count(await deliver(o, system, events, read.verified));
}

/**
 * The body and the targets whose secret verifies it. A vendor authenticated by a header (Zoho) is checked
 * before a byte of the body is read; a signed body is read first, at most `maxUnverified` of them at once
 * (503 beyond: the vendor retries), then verified on its raw bytes.
 */
async function readVerified(
  state: ListenerState,
  req: IncomingMessage,
  maxBodyBytes: number,
  candidates: readonly WebhookTarget[],
): Promise<Answer | { body: Buffer; verified: WebhookTarget[] }> {
  const byHeaders = candidates[0]?.webhooks.verifyHeaders;
  const authenticated = byHeaders
    ? verifiedTargets(candidates, (t) => safely(() => t.webhooks.verifyHeaders!(req.headers, t.secret)))
    : undefined;
  if (authenticated?.length === 0 || candidates.length === 0) return refuse(req, 401, 'bad_signature');
  if (!authenticated && state.unverified >= state.maxUnverified) return refuse(req, 503, 'overloaded');
  let body: Buffer;
  if (!authenticated) state.unverified++;
  try {
    body = await readBody(req, maxBodyBytes);
  } catch (e) {
    if (e instanceof BodyTooLargeError) return { status: 413, result: 'malformed', why: 'body over the size cap' };
    throw e;
  } finally {
    if (!authenticated) state.unverified--;
  }
  const verified = verifiedTargets(authenticated ?? candidates, (t) =>
    safely(() => t.webhooks.verify(body, req.headers, t.secret)),
  );
  return verified.length ? { body, verified } : { status: 401, result: 'bad_signature' };
}

/** Refused before the body is read: the rest of it is discarded and the connection ends with the answer. */
function refuse(req: IncomingMessage, status: number, result: 'bad_signature' | 'overloaded'): Answer {
  req.resume();
  return { status, result, unread: true };
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
