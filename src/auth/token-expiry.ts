/** How long before a token's `expiresAt` `erp-sync config check` starts warning. */
export const EXPIRY_WARNING_DAYS = 14;
const DAY_MS = 86_400_000;

interface ExpiringToken {
  name: string;
  expiresAt?: string;
}

/** True once `now` has reached the token's `expiresAt` (a token without one never expires). */
export const tokenExpired = (t: { expiresAt?: string }, now: number): boolean =>
  t.expiresAt !== undefined && Date.parse(t.expiresAt) <= now;

/**
 * The `http` settings with only the tokens not yet expired: what authentication reads at each request, so
 * a token stops working the moment it expires, without a reload, and its console sessions end at their
 * next request (as when its name is removed).
 */
export function unexpiredTokens<H extends { tokens: readonly ExpiringToken[] }>(http: H, now = Date.now()): H {
  return http.tokens.some((t) => tokenExpired(t, now))
    ? { ...http, tokens: http.tokens.filter((t) => !tokenExpired(t, now)) }
    : http;
}

/** One line per token expired or expiring within `EXPIRY_WARNING_DAYS`, soonest first: what `config check` warns of. */
export function tokenExpiryWarnings(tokens: readonly ExpiringToken[], now: number): string[] {
  return tokens
    .filter((t) => t.expiresAt !== undefined && Date.parse(t.expiresAt) - now < EXPIRY_WARNING_DAYS * DAY_MS)
    .sort((a, b) => Date.parse(a.expiresAt!) - Date.parse(b.expiresAt!))
    .map((t) => {
      const left = Date.parse(t.expiresAt!) - now;
      if (left <= 0) return `http.tokens "${t.name}" expired at ${t.expiresAt}: it is refused (401); replace it`;
      const when = left < DAY_MS ? 'in less than a day' : `in about ${Math.round(left / DAY_MS)} day(s)`;
      return `http.tokens "${t.name}" expires ${when} (${t.expiresAt}): rotate it before then`;
    });
}
