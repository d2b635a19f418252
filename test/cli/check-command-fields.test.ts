import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionCheck } from '../../operations/check-connection.js';
import { runCli } from '../support/cli.js';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * `erp-sync check` holds each connection's `fields` rules against the fields the organisation has,
 * read from the vendor's settings over loopback: Zoho's custom fields and reporting tags, QuickBooks'
 * Preferences (the legacy sales fields), Xero's tracking categories.
 */
describe('erp-sync check: field mappings against the organisation', () => {
  let p: Harness;
  const checkOf = async (id: string): Promise<ConnectionCheck> => {
    const r = await runCli(['check', '--connection', id, '--json', '--config', await p.configFile()], {
      env: p.secretEnv,
      timeoutMs: 30_000,
    });
    expect(r.out, r.err).not.toBe('');
    const out = JSON.parse(r.out) as { connections: ConnectionCheck[] };
    return out.connections[0]!;
  };
  const fieldCheck = (c: ConnectionCheck) => c.checks.find((x) => x.check === 'field mapping');

  beforeAll(async () => {
    p = await startHarness({
      name: 'check-fields',
      invoices: 5,
      connections: [
        {
          system: 'zoho-books',
          id: 'zoho-fields',
          extra: {
            fields: [
              { from: { customField: 'Project code' }, to: { metaData: 'projectCode' } },
              { from: { reportingTag: 'Region' }, to: { tag: 'region' } },
              { from: { customField: 'PO Number' }, to: { metaData: 'poNumber' } },
            ],
          },
        },
        {
          system: 'quickbooks',
          id: 'qbo-fields',
          extra: {
            fields: [
              { from: { customField: 'P.O. Number' }, to: { metaData: 'poNumber' } },
              { from: { customField: 'Project code' }, to: { tag: 'project' } },
            ],
          },
        },
        {
          system: 'xero',
          id: 'xero-fields',
          extra: {
            fields: [
              { from: { tracking: 'Region' }, to: { tag: 'region' } },
              { from: { tracking: 'Cost centre' }, to: { metaData: 'costCentre' } },
            ],
          },
        },
      ],
    });
  }, 90_000);
  afterAll(() => p?.close());

  it('given a Zoho rule naming a custom field the organisation lacks, when checked, then the field mapping check fails naming that rule only, and the others pass', async () => {
    const c = await checkOf('zoho-fields');
    const f = fieldCheck(c)!;
    expect(f.status).toBe('failed');
    expect(f.detail).toContain('fields.2 names customField "PO Number"');
    expect(f.detail).not.toContain('Project code');
    expect(f.detail).not.toContain('"Region"');
    expect(f.detail).toContain('(it has 1 customField, 1 reportingTag)');
    expect(f.fix).toMatch(/correct the name/);
    expect(c.ok).toBe(false);
  }, 60_000);

  it('given QuickBooks rules, when checked, then a legacy field Preferences names passes and an enhanced one it cannot list is a warning, not a failure', async () => {
    const c = await checkOf('qbo-fields');
    const f = fieldCheck(c)!;
    expect(f.status).toBe('ok');
    expect(f.detail).toMatch(/^warning, not listed: fields\.1 names customField "Project code"/);
    expect(f.detail).not.toContain('P.O. Number');
  }, 60_000);

  it('given a Xero rule naming a tracking category the organisation lacks, when checked, then it fails naming it, and the category it has passes', async () => {
    const c = await checkOf('xero-fields');
    const f = fieldCheck(c)!;
    expect(f.status).toBe('failed');
    expect(f.detail).toContain('fields.1 names tracking "Cost centre"');
    expect(f.detail).not.toContain('"Region"');
    expect(f.detail).toContain('2 tracking');
  }, 60_000);
});
