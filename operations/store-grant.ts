import { connectorFor } from '../connectors/registry.js';
import type { Runtime } from '../jobs/runtime.js';
import type { GrantTokens } from '../src/auth/authorization-flow.js';
import { tokenKeyOf } from '../src/auth/token-key.js';
import type { AppConfig } from '../src/config.js';

/** What storing a new grant did: whether it replaced stored tokens, and what they are sealed under. */
export interface StoredGrant {
  replaced: boolean;
  /** The sealing key's id, or `plain` without ERP_SYNC_TOKEN_KEY. */
  sealed?: string;
}

/**
 * A new grant's tokens in place of the old ones under token key `key` (sealed as the token store seals
 * everything). A park set because the vendor refused the old grant ends with it, for every connection
 * sharing the grant. What `erp-sync connect` and the console's connect both do once the organisation is known.
 */
export async function storeGrant(
  rt: Pick<Runtime, 'tokens' | 'quotas'>,
  config: Pick<AppConfig, 'connections'>,
  key: string,
  tokens: GrantTokens,
): Promise<StoredGrant> {
  const before = await rt.tokens.describe(key);
  const refused = before.failedAt !== undefined;
  await rt.tokens.replace(key, {
    refreshToken: tokens.refreshToken,
    accessToken: tokens.accessToken,
    expiresAt: Date.now() + tokens.expiresInSeconds * 1000,
  });
  if (refused)
    for (const c of config.connections)
      if (tokenKeyOf({ config: c, connector: connectorFor(c.system) }) === key) await rt.quotas.unpark(c.id);
  const sealed = (await rt.tokens.describe(key)).sealedUnder;
  return { replaced: before.hasRefreshToken, sealed };
}
