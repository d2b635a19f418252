import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreviewResult } from '../../operations/preview-stream.js';
import { runCli } from '../support/cli.js';
import { type Harness, startHarness } from '../support/harness.js';

/** `erp-sync preview` shows what a connection's `fields` rules send: each record's tags and mapped metaData keys. */
describe('erp-sync preview: a fields mapping', () => {
  let p: Harness;
  const fields = [
    { from: { customField: 'Project code' }, to: { metaData: 'projectCode' } },
    { from: { reportingTag: 'Region' }, to: { tag: 'region' } },
  ];
  const preview = async (args: string[]) =>
    runCli(['preview', '--connection', 'zoho-fields', ...args, '--config', await p.configFile()], {
      env: p.secretEnv,
      timeoutMs: 30_000,
    });

  beforeAll(async () => {
    p = await startHarness({
      name: 'preview-fields',
      invoices: 40,
      connections: [{ system: 'zoho-books', id: 'zoho-fields', extra: { fields } }],
    });
  }, 90_000);
  afterAll(() => p?.close());

  it("given rules moving Zoho's Region tag and Project code field, when preview --json runs, then each tagged record lists them under the rule's keys, as its body sends them", async () => {
    const r = await preview(['--limit', '1000', '--json']);
    expect(r.code, r.err).toBe(0);
    const result = JSON.parse(r.out) as PreviewResult;
    const mapped = result.records.filter((x) => x.fields);
    expect(mapped.length).toBeGreaterThan(0);
    for (const x of mapped) {
      const inv = x.body!.kind === 'invoice' ? x.body!.invoice : undefined;
      expect(x.fields!.tags).toEqual(inv!.tags);
      expect(Object.keys(x.fields!.tags ?? {})).toEqual(['region']);
      expect(x.fields!.metaData).toEqual({ projectCode: inv!.metaData!.projectCode });
      expect(inv!.metaData).not.toHaveProperty('cf_project_code');
    }
  }, 60_000);

  it('given the same, when preview prints text, then a tagged record line ends with its tags and mapped metaData', async () => {
    const r = await preview(['--limit', '1000']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/ {2}tags region=(North|South|East|West); metaData projectCode=PRJ-\d{4}-\d{2}\n/);
  }, 60_000);
});
