import { randomUUID } from 'node:crypto';
import type { RouteResult } from '../kit/router.js';

/**
 * QBO response bodies and the `intuit_tid` header every response carries.
 * https://developer.intuit.com/app/developer/qbo/docs/develop/troubleshooting/error-codes
 * Faults: `{"Fault":{"Error":[{"Message","Detail","code","element"}],"type"},"time"}`, except 401, which
 * Intuit sends lowercase: `{"fault":{"error":[{"message","detail","code"}],"type":"AUTHENTICATION"}}`.
 */
export function tidHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { intuit_tid: randomUUID(), ...extra };
}

export function ok(body: unknown): RouteResult {
  return { status: 200, body, headers: tidHeaders() };
}

function fault(
  status: number,
  type: string,
  message: string,
  detail: string,
  code: string,
  time: string,
  element = '',
): RouteResult {
  return {
    status,
    headers: tidHeaders(),
    body: { Fault: { Error: [{ Message: message, Detail: detail, code, element }], type }, time },
  };
}

export const qboFaults = {
  /** 4000 parse errors, 4001 invalid queries (unsupported property, MAXRESULTS range), bad CDC params. */
  validation: (code: string, message: string, detail: string, time: string) =>
    fault(400, 'ValidationFault', message, detail, code, time),
  /** 610: the id does not exist (or was deleted). QBO answers it with HTTP 400. */
  notFound: (detail: string, time: string) =>
    fault(400, 'ValidationFault', 'Object Not Found', `Object Not Found : ${detail}`, '610', time),
  /** 429 ThrottleExceeded: per-minute or in-flight limit; Intuit says wait 60 s, and sends no Retry-After. */
  throttled: (time: string) =>
    fault(
      429,
      'SERVICE',
      'message=ThrottleExceeded; errorCode=003001; statusCode=429',
      'The request limit was reached. Wait 60 seconds and retry.',
      '3001',
      time,
    ),
  /** 403 when the token's company is not the path's realm. */
  authorization: (detail: string, time: string) =>
    fault(
      403,
      'AUTHORIZATION',
      'message=ApplicationAuthorizationFailed; errorCode=003100; statusCode=403',
      detail,
      '3100',
      time,
    ),
  system: (status: number, time: string) =>
    fault(
      status,
      'SystemFault',
      'An application error has occurred while processing your request',
      'System Failure Error: sandbox fault',
      '10000',
      time,
    ),
  /** The lowercase 401 shape. */
  authentication: (detail: string): RouteResult => ({
    status: 401,
    headers: tidHeaders({ 'www-authenticate': 'Bearer realm="Intuit", error="invalid_token"' }),
    body: {
      fault: {
        error: [{ message: 'message=AuthenticationFailed; errorCode=003200; statusCode=401', detail, code: '3200' }],
        type: 'AUTHENTICATION',
      },
    },
  }),
};
