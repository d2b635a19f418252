import { afterEach, describe, expect, it } from 'vitest';
import { refreshFn } from '../../../connectors/zoho-books/auth.js';
import { Settings } from '../../../connectors/zoho-books/settings.js';
import { ZOHO_SANDBOX_DEFAULTS } from '../../../sandbox/zoho-books/index.js';
import { AuthError } from '../../../src/errors/index.js';
import { type ZohoClients, startZohoClients } from './harness.js';

describe('the token refresh (auth.ts) against the emulator', () => {
  let h: ZohoClients | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('given a token whose api_domain is another data centre than settings.dataCenter, then the refresh fails with an AuthError naming the host to configure', async () => {
    h = await startZohoClients({ records: 1 });
    // The emulator plays Zoho Accounts; its api_domain is its own URL, not https://www.zohoapis.in.
    const settings = Settings.parse({
      ...h.settings(),
      baseUrl: undefined,
      accountsUrl: h.emulator.url,
      dataCenter: 'in',
    });
    const refresh = refreshFn({ settings });
    const error = await refresh(ZOHO_SANDBOX_DEFAULTS.refreshToken).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as Error).message).toContain(
      `this account's API host is ${h.emulator.url}, but dataCenter "in" points at https://www.zohoapis.in`,
    );
    // With baseUrl set (sandbox, proxy) the check is off and the token comes back.
    const sandbox = refreshFn({ settings: Settings.parse(h.settings()) });
    await expect(sandbox(ZOHO_SANDBOX_DEFAULTS.refreshToken)).resolves.toMatchObject({ expiresInSeconds: 3600 });
  });
});
