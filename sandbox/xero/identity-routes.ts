import type { AuthorizationCodes } from '../kit/authorization-codes.js';
import type { Router } from '../kit/router.js';
import type { XeroTokenRegistry } from './token-registry.js';
import type { XeroDataStore } from './xero-data-store.js';
import { xeroErrors } from './xero-errors.js';

/**
 * Identity endpoints: the authorize page (login.xero.com), `POST /connect/token` (identity.xero.com in production) and
 * `GET /connections` (api.xero.com), which lists the organisations a token reaches:
 * `[{id, authEventId, tenantId, tenantType:"ORGANISATION", tenantName, createdDateUtc, updatedDateUtc}]`.
 */
export const XERO_DECISION_PATH = '/identity/connect/authorize/decision';

export function registerIdentityRoutes(
  router: Router,
  tokens: XeroTokenRegistry,
  store: XeroDataStore,
  counters: { tokenCalls: number },
  codes?: AuthorizationCodes,
): void {
  if (codes) {
    // https://developer.xero.com/documentation/guides/oauth2/auth-flow/ (login.xero.com in production)
    router.on('GET', '/identity/connect/authorize', (ctx) => codes.authorize(ctx.query));
    router.on('POST', XERO_DECISION_PATH, (ctx) => codes.decide(ctx.rawBody));
  }
  router.on('POST', '/connect/token', (ctx) => {
    counters.tokenCalls++;
    return tokens.token(ctx.rawBody, ctx.headers.authorization, codes);
  });
  router.on('GET', '/connections', (ctx) => {
    const check = tokens.check(ctx.headers.authorization);
    if (check !== 'ok')
      return xeroErrors.problem(401, check === 'expired' ? 'TokenExpired' : 'AuthenticationUnsuccessful');
    return {
      status: 200,
      // The tenants the grant reaches: those ticked on the consent page (every one for the starting grant).
      body: store.tenantIds
        .filter((id) => tokens.authorisedTenants?.includes(id) ?? true)
        .map((id) => {
          const org = store.tenant(id).organisation;
          return {
            id: `${id.slice(0, 8)}-0c0c-4000-8000-${id.slice(-12)}`,
            authEventId: '00000000-0000-4000-8000-000000000001',
            tenantId: id,
            tenantType: 'ORGANISATION',
            tenantName: org.Name,
            createdDateUtc: '2025-01-01T00:00:00.0000000',
            updatedDateUtc: '2025-01-01T00:00:00.0000000',
          };
        }),
    };
  });
}
