import { setTimeout as sleep } from 'node:timers/promises';
import type { RouteContext, RouteResult } from '../kit/router.js';
import type { XeroRateLimiter } from './rate-limiter.js';
import { renderXml, wantsJson } from './render-xml.js';
import type { XeroTokenRegistry } from './token-registry.js';
import type { XeroDataStore } from './xero-data-store.js';
import { xeroErrors } from './xero-errors.js';

/**
 * What every Accounting API call goes through, in Xero's order: bearer token (401 problem:
 * AuthenticationUnsuccessful or TokenExpired), `xero-tenant-id` (required; missing or not a connected
 * organisation → 403 problem), the organisation's limits (429 + Retry-After + X-Rate-Limit-Problem), an
 * optional latency held inside the concurrency slot, then the handler. The `X-*Limit-Remaining` headers go
 * on every response; JSON bodies become XML unless the caller accepts JSON.
 */
export interface GuardDeps {
  tokens: XeroTokenRegistry;
  limiter: XeroRateLimiter;
  store: XeroDataStore;
  latencyMs: () => number;
  counters: { requests: number };
}

export type TenantHandler = (ctx: RouteContext, tenantId: string) => RouteResult | Promise<RouteResult>;

export function createGuard(deps: GuardDeps) {
  return (handler: TenantHandler, root = 'Response') =>
    async (ctx: RouteContext): Promise<RouteResult> => {
      deps.counters.requests++;
      const auth = deps.tokens.check(ctx.headers.authorization);
      if (auth !== 'ok')
        return withHeaders(
          xeroErrors.problem(401, auth === 'expired' ? 'TokenExpired' : 'AuthenticationUnsuccessful'),
          deps.limiter.headers(undefined),
        );
      const raw = ctx.headers['xero-tenant-id'];
      const tenantId = (Array.isArray(raw) ? raw[0] : raw)?.trim().toLowerCase();
      // A tenant the grant was not given (unticked on the consent page) is refused like an unknown one.
      if (!tenantId || !deps.store.hasTenant(tenantId) || !(deps.tokens.authorisedTenants?.includes(tenantId) ?? true))
        return withHeaders(xeroErrors.problem(403, 'AuthenticationUnsuccessful'), deps.limiter.headers(undefined));
      const slot = deps.limiter.acquire(tenantId);
      if (!slot.ok) return xeroErrors.rateLimited(slot.problem, slot.retryAfterSeconds, deps.limiter.headers(tenantId));
      try {
        const latency = deps.latencyMs();
        if (latency > 0) await sleep(latency);
        const result = await handler(ctx, tenantId);
        return format(withHeaders(result, deps.limiter.headers(tenantId)), ctx, root);
      } finally {
        slot.release();
      }
    };
}

function withHeaders(result: RouteResult, headers: Record<string, string>): RouteResult {
  return { ...result, headers: { ...headers, ...(result.headers ?? {}) } };
}

function format(result: RouteResult, ctx: RouteContext, root: string): RouteResult {
  if (result.body === undefined || wantsJson(ctx.headers.accept)) return result;
  const body = result.body as Record<string, unknown>;
  const xmlRoot = body.Type === 'ValidationException' || body.Type === 'QueryParseException' ? 'ApiException' : root;
  return {
    ...result,
    body: undefined,
    text: renderXml(xmlRoot, body),
    headers: { ...(result.headers ?? {}), 'content-type': 'text/xml; charset=utf-8' },
  };
}
