import { describe, expect, it } from 'vitest';
import { ACME, COMPANY, CONNECTION, GLOBEX, resolveConnections, shapeConnections } from './harness-connections.js';

describe("the harness's connections", () => {
  it('given only their systems, when resolved, then each gets a per-vendor id, the default company, an origin of its own in that company and a seed of its own', () => {
    const specs = resolveConnections([
      { system: 'zoho-books' },
      { system: 'quickbooks' },
      { system: 'xero' },
      { system: 'quickbooks', company: 'other' },
    ]);
    expect(specs.map((s) => [s.id, s.system, s.company, s.origin, s.seed])).toEqual([
      ['zoho-1', 'zoho-books', COMPANY, 'EXTERNAL_SYSTEM_A', 5],
      ['qbo-1', 'quickbooks', COMPANY, 'EXTERNAL_SYSTEM_B', 6],
      ['xero-1', 'xero', COMPANY, 'EXTERNAL_SYSTEM_C', 7],
      // Another company: its origins are its own.
      ['qbo-2', 'quickbooks', 'other', 'EXTERNAL_SYSTEM_A', 8],
    ]);
  });

  it('given an origin a connection names, when a later one of the same company takes the default, then it gets the next one free', () => {
    const specs = resolveConnections([
      { system: 'xero', origin: 'EXTERNAL_SYSTEM_A' },
      { system: 'zoho-books', id: 'mine', seed: 42, settings: { detailConcurrency: 2 } },
    ]);
    expect(specs[1]).toMatchObject({
      id: 'mine',
      origin: 'EXTERNAL_SYSTEM_B',
      seed: 42,
      settings: { detailConcurrency: 2 },
    });
  });

  it('given two connections of one company on one origin, or on one id, or a fourth external ERP in one company, when resolved, then it fails naming the connection', () => {
    expect(() =>
      resolveConnections([
        { system: 'xero', origin: 'EXTERNAL_SYSTEM_B' },
        { system: 'quickbooks', origin: 'EXTERNAL_SYSTEM_B' },
      ]),
    ).toThrow('connections[1] (qbo-1): origin EXTERNAL_SYSTEM_B of company rel is taken by an earlier connection');
    expect(() =>
      resolveConnections([
        { system: 'xero', id: 'a' },
        { system: 'quickbooks', id: 'a' },
      ]),
    ).toThrow('connections[1]: the id "a" is taken');
    expect(() =>
      resolveConnections([{ system: 'xero' }, { system: 'xero' }, { system: 'xero' }, { system: 'xero' }]),
    ).toThrow('connections[3] (xero-4): company rel has no external origin left');
    expect(() => resolveConnections([])).toThrow('at least one connection');
  });

  it('given a system no vendor profile knows, when resolved, then it fails naming the system and where profiles are listed', () => {
    expect(() => resolveConnections([{ system: 'tally' as 'xero' }])).toThrow(
      'no test vendor profile for system "tally" (test/support/vendors/registry.ts)',
    );
  });

  it('given the Zoho presets, then they keep their fixed connections: one company (one or two organisations) or two companies on their own keys', () => {
    expect(resolveConnections(shapeConnections('one', false)).map((s) => [s.id, s.origin])).toEqual([
      [CONNECTION, 'EXTERNAL_SYSTEM_A'],
    ]);
    expect(resolveConnections(shapeConnections('one', true)).map((s) => [s.company, s.origin, s.seed])).toEqual([
      [COMPANY, 'EXTERNAL_SYSTEM_A', 5],
      [COMPANY, 'EXTERNAL_SYSTEM_B', 6],
    ]);
    const two = resolveConnections(shapeConnections('two', false));
    expect(two.map((s) => [s.id, s.company])).toEqual([
      [ACME.connection, ACME.company],
      [GLOBEX.connection, GLOBEX.company],
    ]);
    expect(two[0]!.billing).toBeUndefined();
    expect(two[1]!.billing).toMatchObject({ apiKey: '${GLOBEX_KEY}', company: GLOBEX.company });
  });
});
