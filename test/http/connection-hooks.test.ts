import { describe, expect, it } from 'vitest';
import { connectionHooks } from '../../src/http/connection-hooks.js';

describe('connectionHooks', () => {
  it('given a connector client options object, when the hooks are taken, then only the pipeline hooks come out', async () => {
    const acquire = async () => () => undefined;
    const onResponse = () => undefined;
    const onQuota = () => undefined;
    const park = async () => undefined;
    const options = {
      connectionId: 'c1',
      settings: { clientSecret: 's' },
      tokens: {},
      acquire,
      onResponse,
      onQuota,
      park,
    };
    expect(connectionHooks(options)).toEqual({
      acquire,
      onResponse,
      onQuota,
      park,
      connectionId: 'c1',
      logger: undefined,
    });
    expect(Object.keys(connectionHooks(options))).not.toContain('settings');
  });
});
