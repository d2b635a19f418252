import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateSettings } from '../connectors/registry.js';
import { Settings as QuickBooksSettings } from '../connectors/quickbooks/settings.js';
import { Settings as XeroSettings } from '../connectors/xero/settings.js';
import { Settings as ZohoSettings } from '../connectors/zoho-books/settings.js';
import { ConnectionConfig, loadConfig, parseConfig } from '../src/config.js';
import { ConfigError } from '../src/errors/index.js';

const minimal = {
  billing: { url: 'http://127.0.0.1:4010', apiKey: '${BILLING_API_KEY}' },
  connections: [{ id: 'zoho-in', system: 'zoho-books', originSource: 'EXTERNAL_SYSTEM_A', settings: {} }],
};

describe('config', () => {
  it('given ${VAR} and ${VAR:-default}, then they are interpolated from the environment', () => {
    const c = parseConfig({ ...minimal, redis: { prefix: '${PREFIX:-fallback}' } }, { BILLING_API_KEY: 'k-123' });
    expect(c.billing.apiKey).toBe('k-123');
    expect(c.redis.prefix).toBe('fallback');
  });

  it('given defaults, then the schema fills them in (rate limit, attempts, schedule, entities)', () => {
    const c = parseConfig(minimal, { BILLING_API_KEY: 'k' });
    expect(c.billing.rateLimit).toEqual({ max: 50, durationMs: 1000, scope: 'deployment' });
    expect(c.sync.attempts).toBe(8);
    expect(c.connections[0]).toMatchObject({
      schedule: { everySeconds: 300 },
      entities: ['customers', 'invoices', 'credit-notes'],
      lookbackSeconds: 600,
    });
  });

  it('given a missing variable, a bad URL, a wrong enum and a duplicate id, then every error is reported with its path', () => {
    const bad = {
      billing: { url: 'not a url', apiKey: '${MISSING_KEY}' },
      connections: [
        { id: 'a', system: 'zoho-books', originSource: 'OTHER' },
        { id: 'a', system: 'sage', originSource: 'EXTERNAL_SYSTEM_B' },
      ],
    };
    const err = (() => {
      try {
        parseConfig(bad, {}, undefined, 'erp-sync.yaml');
      } catch (e) {
        return e as ConfigError;
      }
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect(err!.message).toContain('erp-sync.yaml is invalid');
    expect(err!.message).toContain('billing.apiKey: environment variable MISSING_KEY is not set');
    expect(err!.message).toContain('billing.url:');
    expect(err!.message).toContain('connections.0.originSource: must be EXTERNAL_SYSTEM_A, B or C');
    expect(err!.message).toContain('connections.1.system:');
  });

  it('given originSource OTHER, then a Tally connection takes it, any other vendor is refused, and SERVICE never', () => {
    const tally = { id: 'tally-acme', system: 'tally', originSource: 'OTHER', settings: {} };
    const c = parseConfig({ ...minimal, connections: [...minimal.connections, tally] }, { BILLING_API_KEY: 'k' });
    expect(c.connections[1]!.originSource).toBe('OTHER');
    const refused = (connection: Record<string, unknown>) => () =>
      parseConfig({ ...minimal, connections: [connection] }, { BILLING_API_KEY: 'k' });
    expect(refused({ ...minimal.connections[0], originSource: 'OTHER' })).toThrow(
      /connections\.0\.originSource: must be EXTERNAL_SYSTEM_A, B or C/,
    );
    expect(refused({ ...tally, originSource: 'SERVICE' })).toThrow(/connections\.0\.originSource: must be/);
  });

  it('given the same connection id twice, then it is refused', () => {
    const dup = { ...minimal, connections: [minimal.connections[0], minimal.connections[0]] };
    expect(() => parseConfig(dup, { BILLING_API_KEY: 'k' })).toThrow(/duplicate connection id "zoho-in"/);
  });

  it('given connector settings, then the connector validator reports them under connections.N.settings', () => {
    const validate = () => ({ ok: false as const, issues: ['organizationId: expected the numeric organization id'] });
    expect(() => parseConfig(minimal, { BILLING_API_KEY: 'k' }, validate)).toThrow(
      /connections\.0\.settings\.organizationId: expected the numeric organization id/,
    );
  });

  it('given http.documentLinkKey from the environment, then a short key is refused at its path without its value, an empty one means unset, and a long one is kept', () => {
    expect(
      problems(
        { ...minimal, http: { documentLinkKey: '${LINK_KEY}' } },
        { BILLING_API_KEY: 'k', LINK_KEY: 'CANARY-short' },
      ),
    ).toContainEqual(expect.stringMatching(/^http\.documentLinkKey: use at least 32 characters/));
    expect(
      problems(
        { ...minimal, http: { documentLinkKey: '${LINK_KEY}' } },
        { BILLING_API_KEY: 'k', LINK_KEY: 'CANARY-short' },
      ).join(''),
    ).not.toContain('CANARY');
    const unset = parseConfig({ ...minimal, http: { documentLinkKey: '${LINK_KEY:-}' } }, { BILLING_API_KEY: 'k' });
    expect(unset.http.documentLinkKey).toBeUndefined();
    const key = 'k'.repeat(32);
    const set = parseConfig(
      { ...minimal, http: { documentLinkKey: '${LINK_KEY}' } },
      { BILLING_API_KEY: 'k', LINK_KEY: key },
    );
    expect(set.http.documentLinkKey).toBe(key);
  });

  it('given a parsed config, then it is frozen', () => {
    const c = parseConfig(minimal, { BILLING_API_KEY: 'k' });
    expect(Object.isFrozen(c.billing)).toBe(true);
  });

  it('given a file that is not YAML or does not exist, then a ConfigError says so', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'erp-sync-'));
    const f = join(dir, 'bad.yaml');
    await writeFile(f, 'billing: [unclosed');
    await expect(loadConfig(f, {})).rejects.toThrow(/not valid YAML/);
    await expect(loadConfig(join(dir, 'nope.yaml'), {})).rejects.toThrow(/cannot read config .*ENOENT/);
  });

  it("given a YAML error on a line that holds a value, then the error gives the line and column, not the line's text", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'erp-sync-'));
    const f = join(dir, 'bad.yaml');
    await writeFile(f, 'billing:\n  url: http://127.0.0.1:4010\n  apiKey: sk-literal-value: oops\n');
    const error = await loadConfig(f, {}).then(
      () => new Error('expected a ConfigError'),
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(/not valid YAML: .* at line 3, column \d+$/);
    expect(error.message).not.toContain('sk-literal-value');
  });

  it("given the shipped example configs, then they parse with their connectors' settings (secrets from the environment)", async () => {
    const env = {
      BILLING_API_KEY: 'k',
      BILLING_ATTACHMENT_KEY: 'a',
      REDIS_URL: 'redis://r:6379',
      ZOHO_ORGANIZATION_ID: '600',
      ZOHO_CLIENT_ID: 'c',
      ZOHO_CLIENT_SECRET: 's',
      ZOHO_REFRESH_TOKEN: 'r',
    };
    for (const f of ['examples/production.yaml', 'examples/sandbox.yaml']) {
      const c = await loadConfig(f, env, validateSettings);
      expect(c.connections.length).toBeGreaterThan(0);
    }
  });
});

/** The parse error's lines ("path: message"), or [] when the config is valid. */
function problems(raw: unknown, env: NodeJS.ProcessEnv, validate = validateSettings): string[] {
  try {
    parseConfig(raw, env, validate);
    return [];
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message.split('\n  - ').slice(1);
  }
}

const qbo = (settings: Record<string, unknown>) => ({
  id: 'qbo-in',
  system: 'quickbooks',
  originSource: 'EXTERNAL_SYSTEM_B',
  settings,
});
const qboSettings = { realmId: '9341453012345678', clientId: 'c', clientSecret: 's', refreshToken: 'r' };
const xero = (settings: Record<string, unknown>) => ({
  id: 'xero-in',
  system: 'xero',
  originSource: 'EXTERNAL_SYSTEM_C',
  settings,
});
const xeroSettings = {
  tenantId: '6f1d2a4e-8c3b-4e5a-9b7c-1a2b3c4d5e01',
  clientId: 'c',
  clientSecret: 's',
  refreshToken: 'r',
};
const zoho = (settings: Record<string, unknown>) => ({
  id: 'zoho-in',
  system: 'zoho-books',
  originSource: 'EXTERNAL_SYSTEM_A',
  settings,
});
const zohoSettings = { organizationId: '60012345678', clientId: 'c', clientSecret: 's', refreshToken: 'r' };
const base = { billing: { url: 'http://127.0.0.1:4010', apiKey: 'k' } };
const MALFORMED = '(expected ${NAME} with NAME = letters, digits, _; not starting with a digit)';

describe('config: ${…} references', () => {
  it('given malformed references (a space, no closing brace, a name starting with a digit), when the config is parsed, then each is an error at its path', () => {
    const raw = {
      ...base,
      connections: [
        zoho({ ...zohoSettings, clientId: 'id-${1BAD}' }),
        qbo({ ...qboSettings, clientSecret: '${QBO SECRET}' }),
        xero({ ...xeroSettings, refreshToken: '${XERO_RT' }),
      ],
    };
    expect(problems(raw, { QBO: 'x', XERO_RT: 'x' })).toEqual([
      `connections.0.settings.clientId: malformed \${…} reference "\${1BAD}" ${MALFORMED}`,
      `connections.1.settings.clientSecret: malformed \${…} reference "\${QBO SECRET}" ${MALFORMED}`,
      `connections.2.settings.refreshToken: malformed \${…} reference "\${XERO_RT" ${MALFORMED}`,
    ]);
  });

  it("given a malformed reference next to a good one, when the config is parsed, then the error never shows a variable's value", () => {
    const raw = { ...base, connections: [qbo({ ...qboSettings, clientSecret: '${QBO_SECRET}${QBO SECRET}' })] };
    const lines = problems(raw, { QBO_SECRET: 'very-secret-value' });
    expect(lines).toEqual([
      `connections.0.settings.clientSecret: malformed \${…} reference "\${QBO SECRET}" ${MALFORMED}`,
    ]);
    expect(lines.join('\n')).not.toContain('very-secret-value');
  });

  it("given a variable's value that looks like a reference, when it is interpolated, then it is used as it is (values are not scanned again)", () => {
    const c = parseConfig(
      { ...base, billing: { ...base.billing, apiKey: '${KEY}' }, connections: [zoho(zohoSettings)] },
      { KEY: 'a${B C}' },
      validateSettings,
    );
    expect(c.billing.apiKey).toBe('a${B C}');
  });

  it('given an unset variable in a required string, when the config is parsed, then only "is not set" is reported for that path', () => {
    const lines = problems({ ...minimal, connections: [zoho(zohoSettings)] }, {});
    expect(lines).toEqual(['billing.apiKey: environment variable BILLING_API_KEY is not set']);
  });

  it('given an unset variable in connector settings, when the config is parsed, then only "is not set" is reported for that path', () => {
    const lines = problems(
      { ...base, connections: [qbo({ ...qboSettings, clientSecret: '${QBO_CLIENT_SECRET}' })] },
      {},
    );
    expect(lines).toEqual(['connections.0.settings.clientSecret: environment variable QBO_CLIENT_SECRET is not set']);
  });

  it('given a number field whose whole value is ${VAR}, when the variable holds a number, then the field gets the number', () => {
    const raw = {
      ...base,
      http: { port: '${HTTP_PORT}' },
      sync: { attempts: '${ATTEMPTS:-12}' },
      connections: [qbo({ ...qboSettings, pageSize: '${QBO_PAGE_SIZE}' })],
    };
    const c = parseConfig(raw, { HTTP_PORT: '9999', QBO_PAGE_SIZE: '250' }, validateSettings);
    expect(c.http.port).toBe(9999);
    expect(c.sync.attempts).toBe(12);
    expect(c.connections[0]!.settings).toMatchObject({ pageSize: 250 });
  });

  it('given a number field whose whole value is ${VAR}, when the variable is not a number, then the error names the variable, not its value', () => {
    const lines = problems(
      { ...base, http: { port: '${HTTP_PORT}' }, connections: [zoho(zohoSettings)] },
      { HTTP_PORT: 'nine-thousand' },
    );
    expect(lines).toEqual(['http.port: expected a number, but ${HTTP_PORT} is not a number']);
  });

  it('given a coerced number out of range, when the config is parsed, then the range is still checked', () => {
    const lines = problems(
      { ...base, http: { port: '${HTTP_PORT}' }, connections: [zoho(zohoSettings)] },
      { HTTP_PORT: '99999' },
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^http\.port: Too big/);
  });

  it('given a number field with ${VAR} inside a longer string, when the config is parsed, then the error says the reference yields a string', () => {
    const lines = problems(
      { ...base, http: { port: '9${PORT_SUFFIX}' }, connections: [zoho(zohoSettings)] },
      { PORT_SUFFIX: '999' },
    );
    expect(lines).toEqual([
      'http.port: expected a number, but a ${…} inside a longer string yields a string (write the whole value as one ${VAR} to get a number)',
    ]);
  });

  it('given a string field whose whole value is ${VAR} holding digits, when the config is parsed, then it stays a string', () => {
    const c = parseConfig(
      { ...base, connections: [qbo({ ...qboSettings, realmId: '${QBO_REALM_ID}' })] },
      { QBO_REALM_ID: '9341453012345678' },
      validateSettings,
    );
    expect(c.connections[0]!.settings).toMatchObject({ realmId: '9341453012345678' });
  });
});

describe('config: time zones', () => {
  it('given reconcile.timeZone Mars/Olympus, when the config is parsed, then it is refused with the field and an example', () => {
    const lines = problems({ ...base, reconcile: { timeZone: 'Mars/Olympus' }, connections: [zoho(zohoSettings)] }, {});
    expect(lines).toEqual([
      'reconcile.timeZone: not a time zone: timeZone takes an IANA time zone name, e.g. "Asia/Kolkata" or "UTC"',
    ]);
  });

  it('given reconcile.timeZone Asia/Kolkata, when the config is parsed, then it is accepted (and UTC is the default)', () => {
    expect(
      parseConfig({ ...base, reconcile: { timeZone: 'Asia/Kolkata' }, connections: [zoho(zohoSettings)] }, {}).reconcile
        .timeZone,
    ).toBe('Asia/Kolkata');
    expect(parseConfig({ ...base, connections: [zoho(zohoSettings)] }, {}).reconcile.timeZone).toBe('UTC');
  });
});

describe('config: every error at once', () => {
  it('given an unknown system on one connection and bad settings on another, when the config is parsed, then both are reported', () => {
    const raw = {
      ...base,
      connections: [
        { ...qbo(qboSettings), system: 'quickbook' },
        zoho({ ...zohoSettings, organizationId: 'acme' }),
        xero({ ...xeroSettings, tenantId: 'not-a-uuid' }),
      ],
    };
    const lines = problems(raw, {});
    expect(lines).toContainEqual(expect.stringMatching(/^connections\.0\.system: /));
    expect(lines).toContain('connections.1.settings.organizationId: expected the numeric organization id');
    expect(lines).toContainEqual(
      expect.stringMatching(/^connections\.2\.settings\.tenantId: expected the Xero tenant id, a UUID/),
    );
    expect(lines).toHaveLength(3);
  });

  it('given an invalid base config, when a connection with a known system has bad settings, then its settings errors are reported too', () => {
    const lines = problems(
      { billing: { url: 'nope', apiKey: 'k' }, connections: [{ ...zoho({ organizationId: 'x' }), id: 'Bad Id' }] },
      {},
    );
    expect(lines).toContainEqual(expect.stringMatching(/^billing\.url: /));
    expect(lines).toContainEqual(expect.stringMatching(/^connections\.0\.id: /));
    expect(lines).toContain('connections.0.settings.organizationId: expected the numeric organization id');
    expect(lines).toContainEqual(expect.stringMatching(/^connections\.0\.settings\.clientId: /));
  });

  it('given an unknown key in connector settings, when the config is parsed, then it is reported at its own path', () => {
    expect(problems({ ...base, connections: [qbo({ ...qboSettings, realmID: '1' })] }, {})).toEqual([
      'connections.0.settings.realmID: unknown key',
    ]);
    expect(problems({ ...base, connections: [zoho({ ...zohoSettings, pagesize: 50, dataCentre: 'in' })] }, {})).toEqual(
      ['connections.0.settings.pagesize: unknown key', 'connections.0.settings.dataCentre: unknown key'],
    );
    expect(problems({ ...base, connections: [xero({ ...xeroSettings, pagesize: 50 })] }, {})).toEqual([
      'connections.0.settings.pagesize: unknown key',
    ]);
  });

  it('given an unknown key in the base config, when the config is parsed, then it is reported at its own path', () => {
    expect(
      problems({ ...base, billing: { ...base.billing, apikey: 'k' }, connections: [zoho(zohoSettings)] }, {}),
    ).toEqual(['billing.apikey: unknown key']);
  });

  it("given a Xero tenantId that is not a UUID, when the config is parsed, then it is refused; the sandbox's tenant ids are accepted", async () => {
    expect(problems({ ...base, connections: [xero({ ...xeroSettings, tenantId: 'not-a-uuid' })] }, {})).toEqual([
      'connections.0.settings.tenantId: expected the Xero tenant id, a UUID (GET https://api.xero.com/connections lists them)',
    ]);
    const { DEFAULT_TENANTS } = await import('../sandbox/xero/tenants.js');
    for (const t of DEFAULT_TENANTS)
      expect(problems({ ...base, connections: [xero({ ...xeroSettings, tenantId: t.tenantId })] }, {})).toEqual([]);
  });
});

describe('config: docs/configuration.md', () => {
  it('given the connection and connector settings schemas, when the docs are read, then every key is documented', async () => {
    const doc = await readFile('docs/configuration.md', 'utf8');
    const sections: Array<[string, string[]]> = [
      ['## `connections[]`', Object.keys(ConnectionConfig.shape)],
      ['### Zoho Books', Object.keys(ZohoSettings.shape)],
      ['### QuickBooks Online', Object.keys(QuickBooksSettings.shape)],
      ['### Xero', Object.keys(XeroSettings.shape)],
    ];
    for (const [title, keys] of sections) {
      expect(doc, title).toContain(title);
      const text = doc.slice(doc.indexOf(title) + title.length).split(/\n#/)[0]!;
      for (const k of keys) expect(text, `${title} documents ${k}`).toMatch(new RegExp(`\`${k}[\`.]`));
    }
  });
});

describe('config: connections[].billing (a connection writing to another billing company)', () => {
  const KEY_B = 'secret-key-of-company-b';
  const two = (billing: Record<string, unknown>) => ({
    ...base,
    connections: [zoho(zohoSettings), { ...qbo(qboSettings), billing }],
  });

  it('given a connection with its own apiKey, attachmentKey and baseCurrency, when the config is parsed, then it is valid and the other connection keeps the default', () => {
    const c = parseConfig(
      two({ apiKey: '${KEY_B}', attachmentKey: 'attach-b', baseCurrency: 'USD', company: 'globex' }),
      { KEY_B },
      validateSettings,
    );
    expect(c.connections[1]!.billing).toEqual({
      apiKey: KEY_B,
      attachmentKey: 'attach-b',
      baseCurrency: 'USD',
      company: 'globex',
    });
    expect(c.connections[0]!.billing).toBeUndefined();
  });

  it('given billing.url under a connection, when the config is parsed, then it is refused at its path: one billing service has one url', () => {
    expect(problems(two({ url: 'http://other:4010' }), {})).toEqual([
      'connections.1.billing.url: one billing service has one url: set billing.url',
    ]);
  });

  it("given another company's apiKey without baseCurrency, when the config is parsed, then baseCurrency is required at its path, and the key is never quoted", () => {
    const lines = problems(two({ apiKey: KEY_B }), {});
    expect(lines).toEqual([
      expect.stringMatching(
        /^connections\.1\.billing\.baseCurrency: required: this connection writes to billing company "key-[0-9a-f]{8}", not the default one/,
      ),
    ]);
    expect(lines.join('\n')).not.toContain(KEY_B);
  });

  it('given one apiKey named as two companies, or one company with two base currencies, when the config is parsed, then each is refused at its path', () => {
    const sameKey = {
      ...base,
      billing: { ...base.billing, company: 'acme' },
      connections: [
        zoho(zohoSettings),
        { ...qbo(qboSettings), billing: { apiKey: 'k', company: 'globex', baseCurrency: 'INR' } },
      ],
    };
    expect(problems(sameKey, {})).toEqual([
      'connections.1.billing.company: "globex", but billing uses the same apiKey as company "acme": one key belongs to one company',
    ]);
    const twoCurrencies = {
      ...base,
      connections: [
        { ...zoho(zohoSettings), billing: { apiKey: KEY_B, company: 'globex', baseCurrency: 'USD' } },
        { ...qbo(qboSettings), billing: { apiKey: KEY_B, company: 'globex', baseCurrency: 'EUR' } },
      ],
    };
    expect(problems(twoCurrencies, {})).toEqual([
      'connections.1.billing.baseCurrency: EUR, but billing company "globex" has USD at connections.0.billing.baseCurrency: a company has one base currency',
    ]);
    const currencyWithoutKey = { ...base, connections: [{ ...zoho(zohoSettings), billing: { baseCurrency: 'USD' } }] };
    expect(problems(currencyWithoutKey, {})).toEqual([
      expect.stringMatching(
        /^connections\.0\.billing\.baseCurrency: USD, but billing company "key-[0-9a-f]{8}" has INR at billing\.baseCurrency/,
      ),
    ]);
  });

  it('given a company name that is not a plain name, or that takes the fingerprint form, when the config is parsed, then it is refused at its path', () => {
    expect(problems(two({ apiKey: KEY_B, baseCurrency: 'INR', company: 'Globex Ltd' }), {})).toEqual([
      'connections.1.billing.company: use 1–40 lowercase letters, digits or dashes',
    ]);
    expect(
      problems(
        { ...base, billing: { ...base.billing, company: 'key-1234abcd' }, connections: [zoho(zohoSettings)] },
        {},
      ),
    ).toEqual(['billing.company: names starting with "key-" are kept for key fingerprints']);
  });

  it('given rateLimit.scope key, then totalMax is accepted; given totalMax with the deployment scope, then it is refused at its path', () => {
    const key = parseConfig(
      {
        ...base,
        billing: { ...base.billing, rateLimit: { scope: 'key', totalMax: 120 } },
        connections: [zoho(zohoSettings)],
      },
      {},
      validateSettings,
    );
    expect(key.billing.rateLimit).toEqual({ max: 50, durationMs: 1000, scope: 'key', totalMax: 120 });
    expect(
      problems(
        { ...base, billing: { ...base.billing, rateLimit: { totalMax: 120 } }, connections: [zoho(zohoSettings)] },
        {},
      ),
    ).toEqual(['billing.rateLimit.totalMax: totalMax bounds the keys together: only with scope: key']);
  });
});
