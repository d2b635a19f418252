import type { Router } from '../kit/router.js';
import type { ZohoTokenRegistry } from './token-registry.js';
import { zohoResult } from './zoho-error.js';

export function registerOAuthRoutes(router: Router, tokens: ZohoTokenRegistry): void {
  // https://www.zoho.com/accounts/protocol/oauth/web-apps/access-token-expiry.html
  // Zoho Accounts lives on its own host (accounts.zoho.in); the sandbox serves it from the same port.
  // Parameters come as query string or form body (application/x-www-form-urlencoded); JSON is not read.
  // No X-Rate-Limit-* headers: those belong to the Books API.
  router.on('POST', '/oauth/v2/token', (ctx) => {
    const params = new URLSearchParams(ctx.query);
    if (typeof ctx.body === 'string') {
      for (const [k, v] of new URLSearchParams(ctx.body)) if (!params.has(k)) params.set(k, v);
    }
    const { status, body } = tokens.exchange(params);
    return zohoResult(status, body);
  });
}
