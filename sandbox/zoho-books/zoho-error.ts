import type { RouteResult } from '../kit/router.js';

/**
 * Zoho Books error bodies: `{code, message}` with a non-zero `code`; HTTP 200/201/400/401/404/405/429/500.
 * https://zstatic.zohostatic.com/books/api/v3/errors/
 * Codes marked VERIFY come from integrations' observations, not Zoho's docs.
 */
export class ZohoApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ZohoApiError';
  }

  toResult(extraHeaders: Record<string, string> = {}): RouteResult {
    return zohoResult(this.status, { code: this.code, message: this.message }, { ...extraHeaders, ...this.headers });
  }
}

export function zohoResult(status: number, body: unknown, headers: Record<string, string> = {}): RouteResult {
  return { status, body, headers: { 'content-type': 'application/json;charset=UTF-8', ...headers } };
}

export const zohoErrors = {
  /** Any malformed or unknown parameter value (code 2, as Zoho answers for e.g. a bad `filter_by`). */
  invalidValue: (param: string) => new ZohoApiError(400, 2, `Invalid value passed for ${param}`),
  /** Missing, unknown or expired OAuth token. VERIFY: community-observed code 57. */
  notAuthorized: () => new ZohoApiError(401, 57, 'You are not authorized to perform this operation'),
  /** A well-formed organization_id the user does not belong to (Zoho's documented example). */
  unknownOrganization: (id: string) =>
    new ZohoApiError(400, 6041, `This user is not associated with the CompanyID/CompanyName:${id}.`),
  notFound: (what: string) => new ZohoApiError(404, 1002, `${what} does not exist.`),
  /** VERIFY: third-party code for an unknown path. */
  invalidUrl: () => new ZohoApiError(404, 5, 'Invalid URL Passed'),
  /** VERIFY: third-party code. */
  methodNotAllowed: () => new ZohoApiError(405, 37, 'The HTTP method is not allowed for the requested resource'),
  badJson: () => new ZohoApiError(400, 4, 'Invalid value passed for JSONString'),
  internal: () => new ZohoApiError(500, 1000, 'Internal error'),
  /** VERIFY: per-minute throttle, code 44 (third-party). */
  perMinuteLimit: () =>
    new ZohoApiError(
      429,
      44,
      'For security reasons your organization has been blocked as it have exceeded the maximum number of requests per minute that can originate from an organization.',
    ),
  /** Daily cap: message quoted from Zoho's intro page; code 45 is third-party (VERIFY). */
  dailyLimit: (limit: number) =>
    new ZohoApiError(
      429,
      45,
      `The API call for this organization has exceeded the maximum call rate limit of ${limit}.`,
    ),
};
