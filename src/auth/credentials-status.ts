import { tokenKeyOf } from './token-key.js';
import type { TokenStore } from './token-store.js';

/** Whether a connection's grant works, as status output shows it (instants and the vendor's refusal; never a token). */
export interface CredentialsStatus {
  /** False while the vendor refuses the connection's refresh token: someone must re-authorise it. */
  ok: boolean;
  /** When the vendor last refused it (ISO 8601). */
  refusedAt: string | null;
  /** The refusal: error code and message. */
  failure: string | null;
}

/** A connection's credentials state from the shared token store (what any replica met). */
export async function credentialsStatus(
  tokens: Pick<TokenStore, 'describe'>,
  connection: Parameters<typeof tokenKeyOf>[0],
): Promise<CredentialsStatus> {
  const s = await tokens.describe(tokenKeyOf(connection));
  return {
    ok: s.failedAt === undefined,
    refusedAt: s.failedAt ? new Date(s.failedAt).toISOString() : null,
    failure: s.failure ?? null,
  };
}
