import type { RouteHandler, RouteResult } from '../kit/router.js';

/**
 * Error results of the billing emulator (docs/interface-assumptions.md A3, A4): every failure is the
 * envelope `{ error, message }`, `error` a stable code, `message` naming the offending field and never
 * echoing a key. Handlers throw `BillingHttpError`; `guarded()` turns it into a result.
 */
export type BillingErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'INTERNAL'
  | 'UNAVAILABLE';

const CODE_OF_STATUS: Record<number, BillingErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
  500: 'INTERNAL',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'UNAVAILABLE',
};

/** The code for any status (injected faults may use any 4xx/5xx). */
export function codeOfStatus(status: number): BillingErrorCode {
  return CODE_OF_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'BAD_REQUEST');
}

export class BillingHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'BillingHttpError';
  }
}

export const badRequest = (message: string) => new BillingHttpError(400, message);
export const unauthorized = (message: string) => new BillingHttpError(401, message);
export const notFound = (message: string) => new BillingHttpError(404, message);
export const conflict = (message: string) => new BillingHttpError(409, message);

export function errorResult(status: number, message: string, headers?: Record<string, string>): RouteResult {
  return { status, body: { error: codeOfStatus(status), message }, ...(headers ? { headers } : {}) };
}

/** Wraps a handler so a thrown BillingHttpError becomes its error envelope (anything else stays a 500). */
export function guarded(handler: RouteHandler): RouteHandler {
  return async (ctx) => {
    try {
      return await handler(ctx);
    } catch (e) {
      if (e instanceof BillingHttpError) return errorResult(e.status, e.message, e.headers);
      throw e;
    }
  };
}

/** The generic failures the shared emulator server produces, in the billing service's shape. */
export const billingErrors = {
  notFound: (path: string) => errorResult(404, `no endpoint at ${path}`),
  methodNotAllowed: (method: string, path: string) => errorResult(405, `${method} is not allowed on ${path}`),
  tooLarge: (limit: number) => errorResult(413, `request body exceeds ${limit} bytes`),
  badJson: (message: string) => errorResult(400, `(root): request body is not valid JSON (${message})`),
  /** Injected faults: 429 carries Retry-After (seconds). */
  injected: (status: number, reason: string, retryAfterSeconds?: number) =>
    errorResult(
      status,
      `injected fault: ${reason}`,
      status === 429 ? { 'retry-after': String(retryAfterSeconds ?? 1) } : undefined,
    ),
  internal: (message: string) => errorResult(500, `internal error: ${message}`),
};
