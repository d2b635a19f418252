import { AuthError, RateLimitedError, RejectedError, type SyncError, TransientError } from '../../src/errors/index.js';
import type { ErrorContext, ErrorTable } from '../../src/http/vendor-client.js';

/**
 * QuickBooks Online status + fault code → our error classes
 * (https://developer.intuit.com/app/developer/qbo/docs/develop/troubleshooting/error-codes; throttling:
 * https://developer.intuit.com/app/developer/qbo/docs/learn/limits-and-throttles). Read top to bottom;
 * the first row that matches wins. The table only classifies; src/waits/vendor-waits.ts decides whether
 * a throttle is waited out in place or parks the realm.
 *
 * Bodies come as `{"Fault":{"Error":[{"Message","Detail","code","element"}],"type"},"time"}` or, on 401,
 * lowercase `{"fault":{"error":[{"message","detail","code"}],"type"}}`; both are read. A 200 may still
 * carry a Fault (same error-codes page), which is an error too.
 *
 * | status / code                          | class            | why                                               |
 * |----------------------------------------|------------------|---------------------------------------------------|
 * | 429, or code 3001 (ThrottleExceeded)   | RateLimitedError | scope 'minute'; Intuit: wait 60 s, no Retry-After |
 * | 401, code 3200 (AuthenticationFailed)  | AuthError        | the client forces one refresh first               |
 * | 403, code 3100 (AuthorizationFault)    | AuthError        | the app lost its scope or the realm               |
 * | code 610 (Object Not Found), 404       | RejectedError    | a retry cannot make it exist                      |
 * | 5xx, code 10000 (SystemFault), 408     | TransientError   | retry with backoff                                |
 * | other 4xx (ValidationFault, 4000/4001) | RejectedError    | e.g. a query on an unsupported field: a bug       |
 * | a Fault on a 2xx                       | RejectedError    | Intuit answers some errors with 200               |
 *
 * Messages carry the vendor's message, detail, code and `intuit_tid` (for Intuit support), never tokens.
 */
export interface QboFaultError {
  message?: string;
  detail?: string;
  code?: string;
  element?: string;
}

export interface QboFault {
  type?: string;
  errors: QboFaultError[];
}

/** Reads `Fault` or `fault` (and `Error`/`error`, `Message`/`message`...) into one shape. */
export function readFault(body: unknown): QboFault | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const fault = (b.Fault ?? b.fault) as Record<string, unknown> | undefined;
  if (!fault || typeof fault !== 'object') return undefined;
  const list = (fault.Error ?? fault.error) as unknown;
  const errors = (Array.isArray(list) ? list : []).map((e): QboFaultError => {
    const r = (e ?? {}) as Record<string, unknown>;
    return {
      message: str(r.Message ?? r.message),
      detail: str(r.Detail ?? r.detail),
      code: str(r.code ?? r.Code),
      element: str(r.element ?? r.Element),
    };
  });
  return { type: str(fault.type ?? fault.Type), errors };
}

function str(v: unknown): string | undefined {
  return v === undefined || v === null ? undefined : String(v);
}

/** Intuit codes arrive as "3001" or, inside messages, "errorCode=003001": compare numerically. */
function hasCode(fault: QboFault | undefined, code: number): boolean {
  return (fault?.errors ?? []).some((e) => {
    if (e.code !== undefined && Number(e.code) === code) return true;
    const m = /errorCode=0*(\d+)/.exec(e.message ?? '');
    return m !== null && Number(m[1]) === code;
  });
}

function describe(ctx: ErrorContext, fault: QboFault | undefined): string {
  const first = fault?.errors[0];
  const tid = ctx.headers.intuit_tid;
  const parts = [`quickbooks ${ctx.operation} → ${ctx.status}`];
  if (fault?.type) parts.push(fault.type);
  if (first?.code) parts.push(`code ${first.code}`);
  if (first?.message) parts.push(first.message);
  if (first?.detail) parts.push(first.detail.slice(0, 300));
  if (!first && ctx.text) parts.push(ctx.text.slice(0, 200));
  if (tid) parts.push(`intuit_tid ${Array.isArray(tid) ? tid[0] : tid}`);
  return parts.join(': ');
}

/** Intuit's documented wait after a 429 (limits page above). */
export const THROTTLE_WAIT_MS = 60_000;

export interface ErrorTableOptions {
  /** The wait a throttle asks for (settings.throttleWaitMs: 60 s unless a sandbox shortens it). */
  throttleWaitMs?: number;
}

/** The API table with a configurable throttle wait. */
export function errorTableFor(options: ErrorTableOptions = {}): ErrorTable {
  const waitMs = options.throttleWaitMs ?? THROTTLE_WAIT_MS;
  return (ctx): SyncError | undefined => {
    const fault = readFault(ctx.body);
    if (ctx.status < 300 && !fault) return undefined;
    const common = { status: ctx.status, source: 'quickbooks', operation: ctx.operation };
    const message = describe(ctx, fault);
    if (ctx.status === 429 || hasCode(fault, 3001)) {
      return new RateLimitedError(message, { ...common, retryAfterMs: waitMs, scope: 'minute' });
    }
    if (ctx.status === 401 || hasCode(fault, 3200) || fault?.type?.toUpperCase() === 'AUTHENTICATION') {
      return new AuthError(message, common);
    }
    if (ctx.status === 403 || hasCode(fault, 3100)) return new AuthError(message, common);
    if (hasCode(fault, 610) || ctx.status === 404) return new RejectedError(message, common);
    if (ctx.status >= 500 || ctx.status === 408 || hasCode(fault, 10000)) return new TransientError(message, common);
    if (ctx.status >= 400 || fault) return new RejectedError(message, common);
    return undefined;
  };
}

/**
 * The token endpoint's errors: `{"error":"invalid_grant"}` (a spent or revoked refresh token) and
 * `invalid_client` mean the connection must be re-authorised; 5xx is retried; 429 waits like the API.
 * https://developer.intuit.com/app/developer/qbo/docs/develop/authentication-and-authorization/faq
 */
export function tokenErrorTableFor(options: ErrorTableOptions = {}): ErrorTable {
  return (ctx) => {
    const common = { status: ctx.status, source: 'quickbooks', operation: ctx.operation };
    const body = (ctx.body ?? {}) as Record<string, unknown>;
    const error = typeof body.error === 'string' ? body.error : undefined;
    if (ctx.status < 300 && error === undefined) return undefined;
    if (ctx.status >= 500 || ctx.status === 408)
      return new TransientError(`quickbooks token endpoint → ${ctx.status}`, common);
    if (ctx.status === 429) {
      return new RateLimitedError('quickbooks token endpoint throttled', {
        ...common,
        retryAfterMs: options.throttleWaitMs ?? THROTTLE_WAIT_MS,
        scope: 'minute',
      });
    }
    const what = error ?? `HTTP ${ctx.status}`;
    return new AuthError(`quickbooks token refresh refused (${what}); re-authorise the connection`, common);
  };
}

/** The API table with Intuit's 60 s throttle wait. */
export const errorTable: ErrorTable = errorTableFor();

/** The token endpoint's table with Intuit's 60 s throttle wait. */
export const tokenErrorTable: ErrorTable = tokenErrorTableFor();
