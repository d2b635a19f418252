import { describe, expect, it } from 'vitest';
import { validateSettings } from '../../../connectors/registry.js';
import { accountsBaseUrl, apiBaseUrl, Settings } from '../../../connectors/zoho-books/settings.js';
import { parseConfig } from '../../../src/config.js';
import { ConfigError } from '../../../src/errors/index.js';

const base = { organizationId: '60012345678', clientId: 'c', clientSecret: 's', refreshToken: 'r' };

/** Settings as the config loader parses them: through connectors/registry.ts, errors as one ConfigError. */
function loadSettings(settings: Record<string, unknown>): Settings {
  const config = parseConfig(
    {
      billing: { url: 'http://127.0.0.1:4010', apiKey: 'k' },
      connections: [{ id: 'zoho-in', system: 'zoho-books', originSource: 'EXTERNAL_SYSTEM_A', settings }],
    },
    {},
    validateSettings,
  );
  return config.connections[0]!.settings as Settings;
}

describe('settings (Settings)', () => {
  it.each([
    ['com', 'https://www.zohoapis.com/books/v3', 'https://accounts.zoho.com'],
    ['in', 'https://www.zohoapis.in/books/v3', 'https://accounts.zoho.in'],
    ['eu', 'https://www.zohoapis.eu/books/v3', 'https://accounts.zoho.eu'],
    ['com.au', 'https://www.zohoapis.com.au/books/v3', 'https://accounts.zoho.com.au'],
    ['jp', 'https://www.zohoapis.jp/books/v3', 'https://accounts.zoho.jp'],
    ['ca', 'https://www.zohoapis.ca/books/v3', 'https://accounts.zohocloud.ca'],
    ['com.cn', 'https://www.zohoapis.com.cn/books/v3', 'https://accounts.zoho.com.cn'],
    ['sa', 'https://www.zohoapis.sa/books/v3', 'https://accounts.zoho.sa'],
  ] as const)(
    "given dataCenter %s, then the API and accounts hosts are that data centre's",
    (dataCenter, api, accounts) => {
      const s = Settings.parse({ ...base, dataCenter });
      expect(apiBaseUrl(s)).toBe(api);
      expect(accountsBaseUrl(s)).toBe(accounts);
    },
  );

  it('given a sandbox baseUrl (origin only or full), then /books/v3 is the API path and accounts default to the same origin', () => {
    expect(apiBaseUrl(Settings.parse({ ...base, baseUrl: 'http://127.0.0.1:4010' }))).toBe(
      'http://127.0.0.1:4010/books/v3',
    );
    expect(apiBaseUrl(Settings.parse({ ...base, baseUrl: 'http://127.0.0.1:4010/books/v3/' }))).toBe(
      'http://127.0.0.1:4010/books/v3',
    );
    expect(accountsBaseUrl(Settings.parse({ ...base, baseUrl: 'http://127.0.0.1:4010/books/v3' }))).toBe(
      'http://127.0.0.1:4010',
    );
    expect(accountsBaseUrl(Settings.parse({ ...base, baseUrl: 'http://a:1', accountsUrl: 'http://b:2/' }))).toBe(
      'http://b:2',
    );
  });

  it('given YAML that wrote the organization id as a number, then it becomes the id string; a typo key or a missing secret is a ConfigError naming the field', () => {
    expect(loadSettings({ ...base, organizationId: 60012345678 }).organizationId).toBe('60012345678');
    expect(() => loadSettings({ ...base, organisationId: '1' })).toThrow(ConfigError);
    expect(() => loadSettings({ organizationId: '1', clientId: 'c', refreshToken: 'r' })).toThrow(
      /settings\.clientSecret/,
    );
    // Without a refreshToken the grant comes from `erp-sync connect`, which writes it to the token store.
    expect(loadSettings({ organizationId: '1', clientId: 'c', clientSecret: 's' }).refreshToken).toBeUndefined();
  });
});
