import type { AuthorizationFlow, GrantOrganisation, GrantTokens } from '../src/auth/authorization-flow.js';
import { SyncError } from '../src/errors/index.js';

/** Why an authorisation stored nothing: a stale or forged state, another session's, consent denied, the vendor's refusal. */
export class AuthorizationRefused extends Error {
  constructor(
    message: string,
    /** The connection it was for, once the state named one (the audit log's). */
    readonly connection?: string,
  ) {
    super(message);
  }
}

/**
 * The code exchanged for tokens, and the organisations the grant reaches (what `erp-sync connect` and the
 * console's connect both do once the browser came back); a vendor refusal stores nothing.
 */
export async function redeemGrant(
  flow: AuthorizationFlow,
  settings: object,
  exchange: Parameters<AuthorizationFlow['exchange']>[1],
): Promise<{ tokens: GrantTokens; orgs: GrantOrganisation[] }> {
  let tokens: GrantTokens;
  try {
    tokens = await flow.exchange(settings, exchange);
  } catch (e) {
    if (e instanceof SyncError)
      throw new AuthorizationRefused(`the vendor refused the code exchange: ${e.message}; nothing stored`);
    throw e;
  }
  try {
    return { tokens, orgs: await flow.organisations(settings, tokens, exchange.callback) };
  } catch (e) {
    if (e instanceof SyncError)
      throw new AuthorizationRefused(`the grant's organisations could not be read: ${e.message}; nothing stored`);
    throw e;
  }
}
