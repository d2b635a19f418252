import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  billingKeyId,
  billingTargetOf,
  defaultBillingTarget,
  distinctBillingKeys,
} from '../../src/billing/billing-target.js';

const billing = {
  url: 'http://127.0.0.1:4010',
  apiKey: 'key-of-acme',
  attachmentKey: 'attach-of-acme',
  baseCurrency: 'INR',
  company: 'acme',
};
const config = (connections: Array<{ billing?: Record<string, string> }>) =>
  ({
    billing: { ...billing, rateLimit: { max: 50, durationMs: 1000, scope: 'deployment' } },
    connections,
  }) as unknown as Parameters<typeof distinctBillingKeys>[0];

describe('billing targets: which company a connection writes to', () => {
  it('given no override, then a connection writes to the default company with its keys and base currency', () => {
    expect(billingTargetOf(config([]), {})).toEqual({
      apiKey: 'key-of-acme',
      attachmentKey: 'attach-of-acme',
      baseCurrency: 'INR',
      company: 'acme',
      keyId: billingKeyId('key-of-acme'),
    });
  });

  it("given another company's key, then neither the default's attachment key nor its name carry over; unnamed, the company is the key's fingerprint", () => {
    const t = billingTargetOf(config([]), { billing: { apiKey: 'key-of-globex', baseCurrency: 'USD' } });
    expect(t).toEqual({
      apiKey: 'key-of-globex',
      attachmentKey: undefined,
      baseCurrency: 'USD',
      company: `key-${billingKeyId('key-of-globex')}`,
      keyId: billingKeyId('key-of-globex'),
    });
  });

  it("given a second key named as the default company, then that company's attachment key and base currency carry over", () => {
    const t = billingTargetOf(config([]), { billing: { apiKey: 'second-key-of-acme', company: 'acme' } });
    expect(t).toMatchObject({
      attachmentKey: 'attach-of-acme',
      baseCurrency: 'INR',
      company: 'acme',
      keyId: billingKeyId('second-key-of-acme'),
    });
  });

  it('given a key, then its id is 8 hex digits of a SHA-256 behind a context string: stable, distinct per key, not the key nor its plain hash', () => {
    const id = billingKeyId('key-of-acme');
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(billingKeyId('key-of-acme')).toBe(id);
    expect(billingKeyId('key-of-globex')).not.toBe(id);
    expect(createHash('sha256').update('key-of-acme').digest('hex')).not.toContain(id);
    expect(defaultBillingTarget(config([])).keyId).toBe(id);
  });

  it('given connections on two keys and one on the default again, then two distinct keys are counted', () => {
    expect(distinctBillingKeys(config([{}, { billing: { apiKey: 'key-of-globex', baseCurrency: 'USD' } }, {}]))).toBe(
      2,
    );
  });
});
