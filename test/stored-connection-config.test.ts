import { describe, expect, it } from 'vitest';
import { validateSettings } from '../connectors/registry.js';
import { parseConfig } from '../src/config.js';
import { parseStoredConnection, secretIssues } from '../src/stored-connection-config.js';

/** A stored connection is checked as a YAML one is, with one rule more: no secret travels in it. */

const env = { BILLING_KEY: 'billing-key-0123456789', ZOHO_SECRET: 'zoho-secret-value', OTHER_KEY: 'other-company-key' };
const base = parseConfig(
  {
    billing: { url: 'http://127.0.0.1:9', apiKey: '${BILLING_KEY}', company: 'acme' },
    connections: [
      {
        id: 'zoho-yaml',
        system: 'zoho-books',
        originSource: 'EXTERNAL_SYSTEM_A',
        settings: { organizationId: '1', clientId: 'c', clientSecret: '${ZOHO_SECRET}' },
      },
    ],
  },
  env,
  validateSettings,
);
const entry = (changes: Record<string, unknown> = {}) => ({
  id: 'zoho-api',
  system: 'zoho-books',
  originSource: 'EXTERNAL_SYSTEM_B',
  settings: { organizationId: '2', clientId: 'c', clientSecret: '${ZOHO_SECRET}' },
  ...changes,
});
const parse = (raw: unknown, webhookSecret?: string) =>
  parseStoredConnection(raw, { env, validateSettings, base, webhookSecret });

describe('a stored connection checked as a YAML connection is', () => {
  it('given an entry whose secret is a ${VAR}, when parsed, then it is the connection the worker runs: the variable filled, defaults and connector settings applied', () => {
    const r = parse(entry());
    expect(r).toMatchObject({
      ok: true,
      value: {
        id: 'zoho-api',
        entities: ['customers', 'invoices', 'credit-notes'],
        schedule: { everySeconds: 300 },
        settings: { clientSecret: 'zoho-secret-value', dataCenter: 'com', pageSize: 200 },
      },
    });
  });

  it('given literal secrets, a refresh token or a webhook secret, then each is an issue at its path, never quoting the value', () => {
    const issues = secretIssues(
      entry({
        settings: { organizationId: '2', clientId: 'c', clientSecret: 'literal-1', refreshToken: '${T}' },
        billing: { apiKey: 'literal-2', company: 'globex', baseCurrency: 'INR' },
        webhooks: { secret: 'literal-3' },
      }),
    );
    expect(issues.map((i) => i.path.join('.')).sort()).toEqual([
      'billing.apiKey',
      'settings.clientSecret',
      'settings.refreshToken',
      'webhooks.secret',
    ]);
    expect(JSON.stringify(issues)).not.toMatch(/literal-/);
    expect(
      secretIssues(entry({ billing: { apiKey: '${OTHER_KEY}', company: 'globex', baseCurrency: 'INR' } })),
    ).toEqual([]);
  });

  it('given `webhooks: {}`, when parsed with the generated secret, then the connection carries it', () => {
    const secret = 'a'.repeat(48);
    const r = parse(entry({ webhooks: {} }), secret);
    expect(r.ok && r.value.webhooks?.secret).toBe(secret);
  });

  it("given an invalid entry, an unset variable, a bad connector setting or another company's key under this company's name, then the issue names its path", () => {
    const paths = (raw: unknown) => {
      const r = parse(raw);
      return r.ok ? [] : r.issues.map((i) => i.path.join('.'));
    };
    expect(paths(entry({ originSource: 'INTERNAL' }))).toEqual(['originSource']);
    expect(paths(entry({ settings: { organizationId: '2', clientId: 'c', clientSecret: '${UNSET}' } }))).toEqual([
      'settings.clientSecret',
    ]);
    expect(paths(entry({ settings: { organizationId: 'x', clientId: 'c', clientSecret: '${ZOHO_SECRET}' } }))).toEqual([
      'settings.organizationId',
    ]);
    expect(paths(entry({ billing: { apiKey: '${BILLING_KEY}', company: 'globex', baseCurrency: 'INR' } }))).toEqual([
      'billing.company',
    ]);
  });
});
