import { randomUUID } from 'node:crypto';
import type { RouteResult } from '../kit/router.js';

/**
 * Xero's error shapes (https://developer.xero.com/documentation/guides/oauth2/limits/ for the 429s):
 * - 400 ValidationException `{ErrorNumber:10, Type, Message, Elements:[{ValidationErrors:[{Message}]}]}`,
 *   and QueryParseException `{ErrorNumber:16, ...}` for a bad `where`/`order`;
 * - 401/403 problem objects `{Type:null, Title, Status, Detail, Instance}` (Detail AuthenticationUnsuccessful,
 *   TokenExpired);
 * - 404 and 503 ("The Organisation is offline") as plain text;
 * - 429 with an empty body (Retry-After and X-Rate-Limit-Problem headers, set by the caller);
 * - token endpoint errors `{"error":"invalid_grant"}` (OAuth 2.0).
 */
export const xeroErrors = {
  validation(messages: string[]): RouteResult {
    return {
      status: 400,
      body: {
        ErrorNumber: 10,
        Type: 'ValidationException',
        Message: 'A validation exception occurred',
        Elements: [{ ValidationErrors: messages.map((Message) => ({ Message })) }],
      },
    };
  },
  queryParse(message: string): RouteResult {
    return { status: 400, body: { ErrorNumber: 16, Type: 'QueryParseException', Message: message } };
  },
  problem(status: 401 | 403 | 500, detail: string): RouteResult {
    const title = status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'An error occurred';
    return {
      status,
      body: { Type: null, Title: title, Status: status, Detail: detail, Instance: randomUUID(), Extensions: {} },
    };
  },
  notFound(): RouteResult {
    return { status: 404, text: "The resource you're looking for cannot be found" };
  },
  offline(): RouteResult {
    return { status: 503, text: 'The Organisation is offline' };
  },
  rateLimited(problem: string, retryAfterSeconds: number, headers: Record<string, string> = {}): RouteResult {
    return {
      status: 429,
      text: '',
      headers: { ...headers, 'Retry-After': String(retryAfterSeconds), 'X-Rate-Limit-Problem': problem },
    };
  },
  oauth(
    status: 400 | 401,
    error: 'invalid_grant' | 'invalid_client' | 'unsupported_grant_type' | 'invalid_request',
  ): RouteResult {
    return { status, body: { error } };
  },
  methodNotAllowed(): RouteResult {
    return { status: 405, text: 'The requested resource does not support http method' };
  },
};
