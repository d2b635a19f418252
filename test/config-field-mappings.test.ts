import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';

/** `connections[].fields`: the schema, then the rules against each connection's system (src/config-field-mappings.ts). */
const ENV = { BILLING_API_KEY: 'k' };
const withFields = (system: string, fields: unknown[], id = 'acme-1') => ({
  billing: { url: 'http://127.0.0.1:4010', apiKey: '${BILLING_API_KEY}' },
  connections: [{ id, system, originSource: 'EXTERNAL_SYSTEM_A', settings: {}, fields }],
});
const errorOf = (config: unknown): string => {
  try {
    parseConfig(config, ENV);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('the config was accepted');
};

describe('config: connections[].fields', () => {
  it('given no fields, then the connection has none (every field goes to its default place)', () => {
    const c = parseConfig(withFields('zoho-books', []), ENV);
    expect(c.connections[0]!.fields).toEqual([]);
    const { fields: _none, ...without } = withFields('xero', []).connections[0]!;
    expect(parseConfig({ ...withFields('xero', []), connections: [without] }, ENV).connections[0]!.fields).toEqual([]);
  });

  it('given a rule per vendor kind, then each is accepted as written', () => {
    const rules = [
      { from: { customField: 'PO Number' }, to: { metaData: 'poNumber' } },
      { from: { reportingTag: 'Region' }, to: { tag: 'region' } },
    ];
    expect(parseConfig(withFields('zoho-books', rules), ENV).connections[0]!.fields).toEqual(rules);
  });

  it('given a rule with two sources, none, or both targets, then each error names its path and what to write', () => {
    const message = errorOf(
      withFields('zoho-books', [
        { from: { customField: 'A', reportingTag: 'B' }, to: { tag: 'a' } },
        { from: {}, to: { metaData: 'b' } },
        { from: { customField: 'C' }, to: { tag: 'c', metaData: 'c' } },
        { from: { customFeld: 'D' }, to: { tag: 'd' } },
      ]),
    );
    expect(message).toContain('connections.0.fields.0.from: name exactly one of customField, reportingTag or tracking');
    expect(message).toContain('connections.0.fields.1.from: name exactly one of customField, reportingTag or tracking');
    expect(message).toContain('connections.0.fields.2.to: name exactly one of tag or metaData');
    expect(message).toContain('connections.0.fields.3.from.customFeld: unknown key');
  });

  it('given a kind of field the system does not have, then the error names the connection, its system and what it maps', () => {
    expect(errorOf(withFields('xero', [{ from: { customField: 'PO' }, to: { tag: 'po' } }], 'xero-au'))).toContain(
      'connections.0.fields.0.from.customField: connection "xero-au" (xero) has no custom fields: it maps tracking',
    );
    expect(errorOf(withFields('quickbooks', [{ from: { tracking: 'Region' }, to: { tag: 'r' } }]))).toContain(
      'connection "acme-1" (quickbooks) has no tracking categories: it maps customField',
    );
  });

  it('given two rules for one field, or two writing one key, then the second is refused naming the first', () => {
    const message = errorOf(
      withFields('zoho-books', [
        { from: { customField: 'PO' }, to: { tag: 'po' } },
        { from: { customField: 'PO' }, to: { tag: 'po2' } },
        { from: { reportingTag: 'Region' }, to: { tag: 'po' } },
      ]),
    );
    expect(message).toContain(
      'connections.0.fields.1.from: connection "acme-1" (zoho-books): customField "PO" is already mapped by fields.0',
    );
    expect(message).toContain(
      'connections.0.fields.2.to: connection "acme-1" (zoho-books): tag "po" is already written by fields.0',
    );
  });

  it('given a key billing cannot filter by, then it is refused', () => {
    expect(errorOf(withFields('zoho-books', [{ from: { reportingTag: 'R' }, to: { tag: 'a:b' } }]))).toContain(
      'connections.0.fields.0.to.tag: a key without ":" or ","',
    );
  });
});
