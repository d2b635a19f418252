import type { RouteContext, RouteHandler, RouteResult } from '../kit/router.js';
import type { ZohoRateLimiter } from './rate-limiter.js';
import type { ZohoTokenRegistry } from './token-registry.js';
import { ZohoApiError, zohoErrors, zohoResult } from './zoho-error.js';

/**
 * Wraps a Books API handler with what every Zoho call goes through, in this order:
 * 1. `Authorization: Zoho-oauthtoken <token>` (a live access token) → else 401 code 57;
 * 2. `organization_id` query parameter (or the `X-com-zoho-books-organizationid` header) → missing or not
 *    numeric: 400 code 2 "Invalid value passed for organization_id"; numeric but not this org: 400 code
 *    6041 "This user is not associated with the CompanyID/CompanyName:<id>.";
 * 3. the per-organisation rate limits → 429 (code 44 per minute, 45 daily).
 * Every answer carries the X-Rate-Limit-* headers. Handlers return the payload; `code: 0` and
 * `message: "success"` are added here. https://www.zoho.com/books/api/v3/introduction/
 */
export interface GuardDeps {
  tokens: ZohoTokenRegistry;
  limiter: ZohoRateLimiter;
  organizationId: () => string;
}

export type ZohoHandler = (ctx: RouteContext) => Record<string, unknown>;
export type Guard = (handler: ZohoHandler, options?: { organization?: boolean }) => RouteHandler;

export function presentedToken(headers: RouteContext['headers']): string | undefined {
  const raw = headers.authorization;
  const m = typeof raw === 'string' ? /^Zoho-oauthtoken\s+(\S+)\s*$/i.exec(raw) : null;
  return m?.[1];
}

function organizationParam(ctx: RouteContext): string | undefined {
  const header = ctx.headers['x-com-zoho-books-organizationid'];
  return ctx.query.get('organization_id') ?? (typeof header === 'string' ? header : undefined);
}

export function createGuard(deps: GuardDeps): Guard {
  return (handler, options = {}) =>
    (ctx): RouteResult => {
      try {
        const token = presentedToken(ctx.headers);
        if (token === undefined || !deps.tokens.isValid(token)) throw zohoErrors.notAuthorized();
        if (options.organization !== false) {
          const org = organizationParam(ctx);
          if (org === undefined || !/^\d+$/.test(org)) throw zohoErrors.invalidValue('organization_id');
          if (org !== deps.organizationId()) throw zohoErrors.unknownOrganization(org);
        }
        const decision = deps.limiter.consume();
        if (!decision.ok) return decision.error.toResult();
        return zohoResult(200, { code: 0, message: 'success', ...handler(ctx) }, decision.headers);
      } catch (e) {
        if (e instanceof ZohoApiError) return e.toResult(deps.limiter.dailyHeaders());
        throw e;
      }
    };
}
