import { describe, expect, it } from 'vitest';
import { sourceMeta } from '../../src/mapping/index.js';

describe('sourceMeta: the metaData envelope of every mapped body', () => {
  it('given system, status and version, then sourceSystem, sourceStatus and sourceVersion come first', () => {
    expect(JSON.stringify(sourceMeta({ system: 'xero', status: 'PAID', version: '2026-11-27T10:00:00.000Z' }))).toBe(
      '{"sourceSystem":"xero","sourceStatus":"PAID","sourceVersion":"2026-11-27T10:00:00.000Z"}',
    );
  });

  it('given vendor fields, then they follow in the order given, an undefined one is left out and a null one is sent', () => {
    const meta = sourceMeta({
      system: 'quickbooks',
      status: 'open',
      version: 'v',
      syncToken: '3',
      erpNumber: undefined,
      lineAmountTypes: null,
      paid: 0,
    });
    expect(JSON.stringify(meta)).toBe(
      '{"sourceSystem":"quickbooks","sourceStatus":"open","sourceVersion":"v","syncToken":"3","lineAmountTypes":null,"paid":0}',
    );
    expect(Object.hasOwn(meta, 'erpNumber')).toBe(false);
  });
});
