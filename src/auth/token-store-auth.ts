import { CredentialsRefusedError } from '../errors/index.js';
import type { AuthProvider } from '../http/vendor-client.js';
import type { RefreshFn, SeedOutcome, TokenStore } from './token-store.js';

export interface TokenStoreAuthOptions {
  tokens: TokenStore;
  /** The TokenStore key: the connection, or a group of connections sharing one authorisation. */
  key: string;
  /**
   * The refresh token from the connection's config: it seeds the store, and replaces it when it is a new
   * one. Absent when the grant came from `erp-sync connect`, which writes it to the store itself.
   */
  refreshToken?: string;
  /** The vendor's token call, run by the TokenStore under its lock. */
  refresh: RefreshFn;
  /** The Authorization scheme the vendor expects before the token: `Bearer`, `Zoho-oauthtoken`. */
  scheme: string;
}

/**
 * An AuthProvider over the shared TokenStore: the config's refresh token seeds Redis once per client
 * (the same token as the store was seeded with leaves it alone, because after a rotation Redis holds the
 * live one and the config's is spent; a new one, after a re-consent, replaces it), then every call reads
 * the access token the store holds, refreshing under its lock when it is
 * missing, expiring or `stale` (the one the vendor just refused). A failed seed is tried again on the
 * next call rather than remembered, and a store emptied since (a reset) is seeded again.
 */
export function tokenStoreAuth(options: TokenStoreAuthOptions): AuthProvider {
  const { tokens, key, refreshToken, refresh, scheme } = options;
  let seeded: Promise<SeedOutcome> | undefined;
  const seed = () =>
    (seeded ??= (
      refreshToken === undefined ? Promise.resolve<SeedOutcome>('kept') : tokens.seed(key, refreshToken)
    ).catch((err: unknown) => {
      seeded = undefined;
      throw err;
    }));
  return {
    async prepare() {
      return (await seed()) === 'replaced' ? 'replaced' : 'unchanged';
    },
    async token(stale) {
      await seed();
      try {
        return await tokens.accessToken(key, refresh, stale);
      } catch (err) {
        // The store was emptied after this provider seeded it (`erp-sync token reset` while workers run):
        // seed it from the config again rather than wait for a restart.
        if (
          !(err instanceof CredentialsRefusedError) ||
          refreshToken === undefined ||
          (await tokens.describe(key)).hasRefreshToken
        )
          throw err;
        seeded = undefined;
        await seed();
        return tokens.accessToken(key, refresh, stale);
      }
    },
    header: (token) => `${scheme} ${token}`,
  };
}
