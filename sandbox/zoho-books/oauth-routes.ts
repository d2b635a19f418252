import { AuthorizationCodes } from '../kit/authorization-codes.js';
import type { Router } from '../kit/router.js';
import type { ZohoTokenRegistry } from './token-registry.js';
import { zohoResult } from './zoho-error.js';

/** The consent page's form posts here (the sandbox's own path; Zoho's page is its own business). */
export const ZOHO_DECISION_PATH = '/oauth/v2/auth/decision';

export function registerOAuthRoutes(router: Router, tokens: ZohoTokenRegistry, codes?: AuthorizationCodes): void {
  // https://www.zoho.com/accounts/protocol/oauth/web-apps/authorization.html
  // The authorize page: the consent form, then a redirect with code, state, location and accounts-server
  // (https://www.zoho.com/accounts/protocol/oauth/multi-dc.html).
  if (codes) {
    router.on('GET', '/oauth/v2/auth', (ctx) => codes.authorize(ctx.query));
    router.on('POST', ZOHO_DECISION_PATH, (ctx) => codes.decide(ctx.rawBody));
  }
  // https://www.zoho.com/accounts/protocol/oauth/web-apps/access-token-expiry.html
  // Zoho Accounts lives on its own host (accounts.zoho.in); the sandbox serves it from the same port.
  // Parameters come as query string or form body (application/x-www-form-urlencoded); JSON is not read.
  // No X-Rate-Limit-* headers: those belong to the Books API.
  router.on('POST', '/oauth/v2/token', (ctx) => {
    const params = new URLSearchParams(ctx.query);
    if (typeof ctx.body === 'string') {
      for (const [k, v] of new URLSearchParams(ctx.body)) if (!params.has(k)) params.set(k, v);
    }
    const { status, body } = tokens.exchange(params, codes);
    return zohoResult(status, body);
  });
}
