import type { ErrorRequestHandler, Response } from 'express';
import { z } from 'zod';
import { ConfigError, SyncError } from '../src/errors/index.js';

/** The one error shape of the API: a code, a sentence, and for bad input where it is (`query.page`, `body.reason`). */
export const ApiErrorBody = z.object({
  error: z
    .string()
    .describe(
      'BAD_REQUEST, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, CONFLICT, TOO_MANY_REQUESTS, TOO_LARGE, UNSUPPORTED_MEDIA_TYPE, INTERNAL, …',
    ),
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
 * What any thrown error answers: ours as they are; a body that is not JSON 400, too large 413; another
 * refusal of the request itself by Express or its body reader (a path that does not decode, a charset or
 * encoding it cannot read: `expose` and a 4xx status) that status without its message; a ConfigError from
 * an operation (an entity the connection does not sync) 400; another error of the hierarchy 502 with its
 * message (they carry no secrets: src/errors); anything else 500 without its message.
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { type?: string; status?: number; expose?: boolean; message?: string };
  if (e?.type === 'entity.parse.failed') return new ApiError(400, 'BAD_REQUEST', 'the body is not valid JSON', 'body');
  if (e?.type === 'entity.too.large') return new ApiError(413, 'TOO_LARGE', 'the body is too large', 'body');
  if (unreadable(err)) return requestRefused(e.status!);
  if (err instanceof ConfigError) return new ApiError(400, 'BAD_REQUEST', err.message);
  if (err instanceof SyncError) return new ApiError(502, 'UPSTREAM', err.message);
  return new ApiError(500, 'INTERNAL', 'internal error (see the worker log)');
}

/** The body reader's refusals (`expose`, a 4xx status) and the router's path that does not decode (a URIError with status 400). */
function unreadable(err: unknown): boolean {
  const e = err as { status?: unknown; expose?: unknown };
  const status = typeof e?.status === 'number' ? e.status : 0;
  return status >= 400 && status < 500 && (e.expose === true || err instanceof URIError);
}

/** A request Express or its body reader could not read: its status, in our words (theirs may repeat the request). */
function requestRefused(status: number): ApiError {
  if (status === 415)
    return new ApiError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'send the body as JSON in UTF-8, without a content encoding',
      'body',
    );
  return new ApiError(status, 'BAD_REQUEST', 'the request could not be read (a malformed path or body)');
}

/**
 * Headers of every API answer: never cached (answers are per token), and never sniffed as another type
 * than the JSON they are (a 404 repeats the path it was asked).
 */
export function apiHeaders(res: Response): Response {
  return res.set({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
}

export function sendError(res: Response, err: ApiError): void {
  if (err instanceof TooManyRequests) res.set('retry-after', String(err.retryAfterSeconds));
  apiHeaders(res.status(err.status)).json(err.body);
}

/** The API's last handler: every error in the one shape. */
export const apiErrorHandler: ErrorRequestHandler = (err, _req, res, _next) => {
  if (res.headersSent) return void res.end();
  sendError(res, toApiError(err));
};
