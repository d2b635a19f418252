import type { Router } from '../kit/router.js';
import type { XeroTokenRegistry } from './token-registry.js';
import type { XeroDataStore } from './xero-data-store.js';
import { xeroErrors } from './xero-errors.js';

/**
 * Identity endpoints: `POST /connect/token` (identity.xero.com in production) and
 * `GET /connections` (api.xero.com), which lists the organisations a token reaches:
 * `[{id, authEventId, tenantId, tenantType:"ORGANISATION", tenantName, createdDateUtc, updatedDateUtc}]`.
 */
export function registerIdentityRoutes(router: Router, tokens: XeroTokenRegistry, store: XeroDataStore, counters: { tokenCalls: number }): void {
  router.on('POST', '/connect/token', (ctx) => {
    counters.tokenCalls++;
    return tokens.token(ctx.rawBody, ctx.headers.authorization);
  });
  router.on('GET', '/connections', (ctx) => {
    const check = tokens.check(ctx.headers.authorization);
    if (check !== 'ok') return xeroErrors.problem(401, check === 'expired' ? 'TokenExpired' : 'AuthenticationUnsuccessful');
    return {
      status: 200,
      body: store.tenantIds.map((id) => {
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
