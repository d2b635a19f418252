import { describe, expect, it } from 'vitest';
import { validateSettings } from '../../connectors/registry.js';
import { parseConfig } from '../../src/config.js';

/** The webhooks keys of the one config schema (docs/configuration.md, `webhooks`). */
const base = {
  billing: { url: 'http://127.0.0.1:1', apiKey: 'k' },
  connections: [
    {
      id: 'xero-a',
      system: 'xero',
      originSource: 'EXTERNAL_SYSTEM_A',
      settings: { clientId: 'id', clientSecret: 's', tenantId: '11111111-1111-4111-8111-111111111111' },
      webhooks: { secret: '${XERO_WEBHOOK_KEY}' },
    },
  ],
};
const parse = (
  raw: object,
  env: Record<string, string> = { XERO_WEBHOOK_KEY: 'xero-webhook-key-from-the-environment' },
) => parseConfig(raw, env, validateSettings, 'test config');

describe('config: webhooks', () => {
  it('given no webhooks block, then there is no listener; a connection still has its safety-net interval default', () => {
    const c = parse(base);
    expect(c.webhooks).toBeUndefined();
    expect(c.connections[0]!.schedule).toEqual({ everySeconds: 300, withWebhooksEverySeconds: 21_600 });
    expect(c.connections[0]!.webhooks).toEqual({ secret: 'xero-webhook-key-from-the-environment' });
  });

  it('given an empty webhooks block, then the defaults: port 9465 on every interface, 1 MiB, 1 s', () => {
    expect(parse({ ...base, webhooks: {} }).webhooks).toEqual({
      port: 9465,
      host: '0.0.0.0',
      maxBodyBytes: 1_048_576,
      coalesceMs: 1000,
    });
  });

  it('given the listener on the metrics port, then the config is refused at webhooks.port', () => {
    expect(() => parse({ ...base, http: { port: 9500 }, webhooks: { port: 9500 } })).toThrow(
      /webhooks\.port: must differ from http\.port \(9500\)/,
    );
  });

  it('given a webhook secret shorter than 32 characters, then the config is refused at its path, asking for 32, and the value is not repeated', () => {
    const short = 'zoho-secret-of-31-characters-xx';
    expect(short).toHaveLength(31);
    expect(() => parse(base, { XERO_WEBHOOK_KEY: short })).toThrow(
      /connections\.0\.webhooks\.secret: use at least 32 characters/,
    );
    expect(() => parse(base, { XERO_WEBHOOK_KEY: short })).not.toThrow(new RegExp(short));
    expect(parse(base, { XERO_WEBHOOK_KEY: `${short}x` }).connections[0]!.webhooks?.secret).toHaveLength(32);
  });

  it('given a secret variable that is not set, then the error names the variable and no value', () => {
    expect(() => parse(base, {})).toThrow(
      /connections\.0\.webhooks\.secret: environment variable XERO_WEBHOOK_KEY is not set/,
    );
  });
});
