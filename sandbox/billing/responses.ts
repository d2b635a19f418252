import type { RouteResult } from '../kit/router.js';

/** `{}` — what the upsert-style and create-customer endpoints answer. */
export function emptyOk(): RouteResult {
  return { status: 200, body: {} };
}

/** The success envelope `{ error: null, message, data }`. */
export function envelopeOk(data: unknown, message = 'OK'): RouteResult {
  return { status: 200, body: { error: null, message, data } };
}

/** Plain JSON (admin endpoints answer without the envelope). */
export function json(body: unknown, status = 200): RouteResult {
  return { status, body };
}
