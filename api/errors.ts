import type { ErrorRequestHandler, Response } from 'express';
import { z } from 'zod';
import { ConfigError, SyncError } from '../src/errors/index.js';

/** The one error shape of the API: a code, a sentence, and for bad input where it is (`query.page`, `body.reason`). */
export const ApiErrorBody = z.object({
  error: z.string().describe('BAD_REQUEST, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, CONFLICT, TOO_MANY_REQUESTS, INTERNAL'),
  message: z.string(),
  path: z.string().optional().describe('for BAD_REQUEST: the field at fault, e.g. query.page'),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

/** An answer other than 2xx, thrown by handlers and the middleware. */
export class ApiError extends Error {
  /** For the audit log: the connection a refusal was about, when the request's path and body do not name it. */
  connection?: string;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly path?: string,
  ) {
    super(message);
  }

  get body(): ApiErrorBody {
    return { error: this.code, message: this.message, ...(this.path ? { path: this.path } : {}) };
  }
}

export const notFound = (message: string) => new ApiError(404, 'NOT_FOUND', message);

/** 429: a limit on something costly was reached; answered with Retry-After. */
export class TooManyRequests extends ApiError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, 'TOO_MANY_REQUESTS', message);
  }
}

/** A zod failure on one part of the request: 400 naming the first issue's path (`query.page`) and every issue. */
export function badInput(where: 'params' | 'query' | 'body', error: z.ZodError): ApiError {
  const first = error.issues[0];
  const path = [where, ...(first?.path ?? []).map(String)].join('.');
  const message = error.issues.map((i) => `${[where, ...i.path.map(String)].join('.')}: ${i.message}`).join('; ');
  return new ApiError(400, 'BAD_REQUEST', message, path);
}

/**
 * What any thrown error answers: ours as they are; a body that is not JSON 400; a ConfigError from an
 * operation (an entity the connection does not sync) 400; another error of the hierarchy 502 with its
 * message (they carry no secrets: src/errors); anything else 500 without its message.
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { type?: string; status?: number; message?: string };
  if (e?.type === 'entity.parse.failed') return new ApiError(400, 'BAD_REQUEST', 'the body is not valid JSON', 'body');
  if (e?.type === 'entity.too.large') return new ApiError(413, 'TOO_LARGE', 'the body is too large', 'body');
  if (err instanceof ConfigError) return new ApiError(400, 'BAD_REQUEST', err.message);
  if (err instanceof SyncError) return new ApiError(502, 'UPSTREAM', err.message);
  return new ApiError(500, 'INTERNAL', 'internal error (see the worker log)');
}

export function sendError(res: Response, err: ApiError): void {
  if (err instanceof TooManyRequests) res.set('retry-after', String(err.retryAfterSeconds));
  res.status(err.status).set('cache-control', 'no-store').json(err.body);
}

/** The API's last handler: every error in the one shape. */
export const apiErrorHandler: ErrorRequestHandler = (err, _req, res, _next) => {
  if (res.headersSent) return void res.end();
  sendError(res, toApiError(err));
};
