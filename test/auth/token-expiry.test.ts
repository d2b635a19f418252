import { describe, expect, it } from 'vitest';
import { tokenExpired, tokenExpiryWarnings, unexpiredTokens } from '../../src/auth/token-expiry.js';

const NOW = Date.parse('2026-12-07T12:00:00Z');
const DAY = 86_400_000;
const at = (ms: number) => new Date(ms).toISOString();

/** `http.tokens[].expiresAt`: when a token stops working, and what `erp-sync config check` warns of. */
describe('API token expiry', () => {
  it('given expiresAt with an offset, then the token works until that instant and not from it', () => {
    const t = { expiresAt: '2026-12-07T17:30:00+05:30' }; // 12:00 UTC
    expect(tokenExpired(t, NOW - 1)).toBe(false);
    expect(tokenExpired(t, NOW)).toBe(true);
    expect(tokenExpired({}, Number.MAX_SAFE_INTEGER)).toBe(false);
  });

  it('given an expired token among others, then authentication reads the others only', () => {
    const http = {
      port: 1,
      tokens: [
        { name: 'old', expiresAt: at(NOW - 1) },
        { name: 'current', expiresAt: at(NOW + DAY) },
        { name: 'forever' },
      ],
    };
    expect(unexpiredTokens(http, NOW)).toEqual({ port: 1, tokens: [http.tokens[1], http.tokens[2]] });
    const none = { tokens: [{ name: 'forever' }] };
    expect(unexpiredTokens(none, NOW)).toBe(none);
  });

  it('given tokens expired, expiring within 14 days and later, then config check warns of the first two, soonest first', () => {
    const warnings = tokenExpiryWarnings(
      [
        { name: 'later', expiresAt: at(NOW + 15 * DAY) },
        { name: 'soon', expiresAt: at(NOW + 13 * DAY + 1000) },
        { name: 'gone', expiresAt: at(NOW - DAY) },
        { name: 'today', expiresAt: at(NOW + 3_600_000) },
        { name: 'forever' },
      ],
      NOW,
    );
    expect(warnings).toEqual([
      `http.tokens "gone" expired at ${at(NOW - DAY)}: it is refused (401); replace it`,
      `http.tokens "today" expires in less than a day (${at(NOW + 3_600_000)}): rotate it before then`,
      `http.tokens "soon" expires in about 13 day(s) (${at(NOW + 13 * DAY + 1000)}): rotate it before then`,
    ]);
  });
});
