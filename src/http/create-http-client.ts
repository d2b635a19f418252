import http from 'node:http';
import https from 'node:https';
import got, { type Got } from 'got';

export interface HttpClientOptions {
  /** Base URL every path is relative to. */
  prefixUrl: string;
  /** Whole-request timeout, ms. @defaultValue 15000 */
  timeoutMs?: number;
  /** Headers sent on every request (keys live here, never in URLs or logs). */
  headers?: Record<string, string>;
  /** Sockets kept per host. @defaultValue 64 */
  maxSockets?: number;
}

/**
 * The one got factory for the billing client and every connector.
 * - got's own retries are off: retries belong to p-retry (one call) and BullMQ (whole jobs).
 * - HTTP errors do not throw: callers classify status codes through their error table, so a got
 *   HTTPError (whose `options` include request headers) never reaches a log.
 * - Keep-alive agents: a sync makes thousands of requests to one host.
 */
export function createHttpClient(options: HttpClientOptions): Got {
  const timeout = options.timeoutMs ?? 15_000;
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 64 };
  return got.extend({
    prefixUrl: options.prefixUrl,
    headers: { 'user-agent': 'erp-billing-sync', ...(options.headers ?? {}) },
    retry: { limit: 0 },
    throwHttpErrors: false,
    followRedirect: false,
    timeout: { connect: Math.min(5_000, timeout), request: timeout },
    agent: { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) },
  });
}
