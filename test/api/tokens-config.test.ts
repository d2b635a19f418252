import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN_NAME, callerOf } from '../../api/auth.js';
import { parseConfig } from '../../src/config.js';
import { ConfigError } from '../../src/errors/index.js';

const minimal = {
  billing: { url: 'http://127.0.0.1:4010', apiKey: '${BILLING_API_KEY}' },
  connections: [{ id: 'zoho-in', system: 'zoho-books', originSource: 'EXTERNAL_SYSTEM_A', settings: {} }],
};
const env = {
  BILLING_API_KEY: 'k',
  OPS_TOKEN: 'ops-token-0123456789abcdef',
  VIEW_TOKEN: 'view-token-0123456789abcdef',
  ADMIN_TOKEN: 'admin-token-0123456789abcdef',
};

const withTokens = (tokens: unknown[], http: Record<string, unknown> = {}) => ({
  ...minimal,
  http: { tokens, ...http },
});

/** `http.tokens`: named API tokens from the environment, a role each, optionally limited to billing companies. */
describe('config: http.tokens', () => {
  it('given tokens as ${VAR} with roles and companies, then they parse, and the API knows each caller by its name', () => {
    const c = parseConfig(
      withTokens(
        [
          { name: 'ops', token: '${OPS_TOKEN}', role: 'operator', companies: ['acme'] },
          { name: 'finance', token: '${VIEW_TOKEN}', role: 'viewer' },
        ],
        { adminToken: '${ADMIN_TOKEN}' },
      ),
      env,
    );
    expect(c.http.tokens).toEqual([
      { name: 'ops', token: env.OPS_TOKEN, role: 'operator', companies: ['acme'] },
      { name: 'finance', token: env.VIEW_TOKEN, role: 'viewer' },
    ]);
    expect(callerOf(c.http, env.OPS_TOKEN)).toEqual({ name: 'ops', role: 'operator', companies: new Set(['acme']) });
    expect(callerOf(c.http, env.VIEW_TOKEN)).toEqual({ name: 'finance', role: 'viewer' });
    expect(callerOf(c.http, env.ADMIN_TOKEN)).toEqual({ name: ADMIN_TOKEN_NAME, role: 'admin' });
    expect(callerOf(c.http, `${env.OPS_TOKEN}x`)).toBeUndefined();
    expect(callerOf(c.http, env.OPS_TOKEN.slice(0, -1))).toBeUndefined();
  });

  it('given no tokens, then the list is empty and the API accepts no one (but http.adminToken)', () => {
    const c = parseConfig(minimal, env);
    expect(c.http.tokens).toEqual([]);
    expect(callerOf(c.http, 'anything-at-all-long-enough')).toBeUndefined();
  });

  it('given a short token, an unknown role, a repeated name or token, then each error names its path and never shows the token', () => {
    const bad = () =>
      parseConfig(
        withTokens([
          { name: 'ops', token: 'short-secret', role: 'operator' },
          { name: 'ops', token: '${VIEW_TOKEN}', role: 'superuser' },
          { name: 'other', token: '${VIEW_TOKEN}', role: 'viewer', companies: [] },
        ]),
        env,
      );
    expect(bad).toThrow(ConfigError);
    let message = '';
    try {
      bad();
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('http.tokens.0.token');
    expect(message).toContain('http.tokens.0.token: use at least 24 random characters');
    expect(message).toContain('http.tokens.1.role');
    expect(message).toContain('http.tokens.2.companies');
    expect(message).not.toContain('short-secret');
    expect(message).not.toContain(env.VIEW_TOKEN);
  });

  it('given a token or adminToken of 23 characters (finance-ops-2026 and the like), when the config is checked, then it is refused saying how long a token must be', () => {
    const short = { ...env, SHORT: 'finance-ops-2026-q1-abcd'.slice(0, 23) };
    const check = (http: Record<string, unknown>) => {
      try {
        parseConfig({ ...minimal, http }, short);
        return '';
      } catch (e) {
        return (e as Error).message;
      }
    };
    const named = check({ tokens: [{ name: 'ops', token: '${SHORT}', role: 'operator' }] });
    expect(named).toContain('http.tokens.0.token: use at least 24 random characters (openssl rand -base64 32)');
    expect(check({ adminToken: '${SHORT}' })).toContain('http.adminToken: use at least 24 random characters');
    expect(named).not.toContain(short.SHORT);
    expect(check({ tokens: [{ name: 'ops', token: '${SHORT}x', role: 'operator' }] })).toBe('');
  });

  it('given expiresAt, then it must be an ISO date-time with its offset (Z or ±hh:mm)', () => {
    const token = (expiresAt: string) =>
      withTokens([{ name: 'ops', token: '${OPS_TOKEN}', role: 'operator', expiresAt }]);
    expect(parseConfig(token('2027-03-31T18:00:00+05:30'), env).http.tokens[0]!.expiresAt).toBe(
      '2027-03-31T18:00:00+05:30',
    );
    expect(parseConfig(token('2027-03-31T12:30:00Z'), env).http.tokens[0]!.expiresAt).toBe('2027-03-31T12:30:00Z');
    for (const zoneless of ['2027-03-31T18:00:00', '2027-03-31', 'next year']) {
      const e = (() => {
        try {
          parseConfig(token(zoneless), env);
        } catch (err) {
          return err;
        }
      })();
      expect(e, zoneless).toBeInstanceOf(ConfigError);
      expect((e as Error).message).toContain('http.tokens.0.expiresAt');
    }
  });

  it('given two tokens with the same name or the same token, then refused', () => {
    let message = '';
    try {
      parseConfig(
        withTokens([
          { name: 'ops', token: '${OPS_TOKEN}', role: 'operator' },
          { name: 'ops', token: '${OPS_TOKEN}', role: 'viewer' },
        ]),
        env,
      );
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('http.tokens.1.name: names must be unique');
    expect(message).toContain('http.tokens.1.token: each token must be different');
    expect(message).not.toContain(env.OPS_TOKEN);
  });
});
