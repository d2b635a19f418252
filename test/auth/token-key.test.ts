import { describe, expect, it } from 'vitest';
import { connectorFor } from '../../connectors/registry.js';
import { tokenKeyOf } from '../../src/auth/token-key.js';

describe('tokenKeyOf', () => {
  it('given a Xero connection in a token group, then its tokens live under the group; without one, under the connection', () => {
    const xero = connectorFor('xero');
    expect(tokenKeyOf({ config: { id: 'xero-au', settings: { tokenGroup: 'acme-login' } }, connector: xero })).toBe(
      'acme-login',
    );
    expect(tokenKeyOf({ config: { id: 'xero-au', settings: {} }, connector: xero })).toBe('xero-au');
  });

  it('given a connector without shared authorisations, then the key is the connection id', () => {
    expect(
      tokenKeyOf({
        config: { id: 'zoho-in', settings: { tokenGroup: 'ignored' } },
        connector: connectorFor('zoho-books'),
      }),
    ).toBe('zoho-in');
  });
});
