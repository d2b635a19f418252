import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseConfig } from '../src/config.js';
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
    expect(c.billing.rateLimit).toEqual({ max: 50, durationMs: 1000 });
    expect(c.sync.attempts).toBe(8);
    expect(c.connections[0]).toMatchObject({ schedule: { everySeconds: 300 }, entities: ['customers', 'invoices', 'credit-notes'], lookbackSeconds: 600 });
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

  it('given the shipped example configs, then they parse (secrets from the environment)', async () => {
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
      const c = await loadConfig(f, env);
      expect(c.connections.length).toBeGreaterThan(0);
    }
  });
});
