import {
  AuthError,
  ConflictError,
  RateLimitedError,
  RejectedError,
  type SyncError,
  TransientError,
} from '../errors/index.js';
import { parseRetryAfter } from '../http/retry-after.js';

/**
 * Billing HTTP status → error class. One table, read top to bottom (docs/interface-assumptions.md A3–A5).
 * The service's own `message` is kept; the key never is (it is only ever in a request header).
 */
const TABLE: Array<{ match: (status: number) => boolean; make: (msg: string, o: Ctor) => SyncError }> = [
  { match: (s) => s === 401 || s === 403, make: (m, o) => new AuthError(`${m} (check the billing key)`, o) },
  { match: (s) => s === 429, make: (m, o) => new RateLimitedError(m, { ...o, retryAfterMs: o.retryAfterMs ?? 1_000 }) },
  { match: (s) => s === 409, make: (m, o) => new ConflictError(m, o) },
  { match: (s) => s === 408 || s >= 500, make: (m, o) => new TransientError(m, o) },
  { match: (s) => s >= 400, make: (m, o) => new RejectedError(m, o) },
];

interface Ctor {
  status: number;
  retryAfterMs?: number;
  source: string;
  operation: string;
}

export function billingError(
  status: number,
  body: unknown,
  headers: Record<string, string | string[] | undefined>,
  operation: string,
): SyncError {
  const envelope = (typeof body === 'object' && body !== null ? body : {}) as { error?: unknown; message?: unknown };
  const serviceMessage =
    typeof envelope.message === 'string' && envelope.message !== ''
      ? envelope.message
      : typeof body === 'string' && body.length > 0
        ? body.slice(0, 300)
        : `HTTP ${status}`;
  const code = typeof envelope.error === 'string' ? ` ${envelope.error}` : '';
  const message = `billing ${operation} → ${status}${code}: ${serviceMessage}`;
  const opts: Ctor = { status, retryAfterMs: parseRetryAfter(headers['retry-after']), source: 'billing', operation };
  const row = TABLE.find((r) => r.match(status));
  return row ? row.make(message, opts) : new TransientError(message, opts);
}
