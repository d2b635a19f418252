import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, runCli } from '../support/cli.js';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * `erp-sync check` against the QuickBooks and Xero sandboxes over loopback (the Zoho one is in
 * check-command.test.ts): all green; a revoked grant, a tenant the grant does not reach, a billing key
 * billing does not know each fail on their own line, naming the cause and the fix, and exit 1.
 */
const line = (r: CliRun, check: string) =>
  r.out.split('\n').find((l) => l.trimStart().includes(` ${check.padEnd(20)}`)) ?? '';

describe('erp-sync check against the QuickBooks and Xero sandboxes', () => {
  let p: Harness;
  const qbo = () => p.emulatorOf('qbo-check', 'quickbooks');
  const xero = () => p.emulatorOf('xero-check', 'xero');

  beforeAll(async () => {
    p = await startHarness({
      name: 'check-vendors',
      invoices: 5,
      customers: 5,
      connections: [
        { system: 'quickbooks', id: 'qbo-check' },
        { system: 'xero', id: 'xero-check' },
      ],
    });
  }, 60_000);
  afterAll(() => p?.close());

  /** The harness's config; with `tenantId`, Xero's organisation replaced by that one (a file beside it). */
  const config = async (over: { tenantId?: string } = {}): Promise<string> => {
    const file = await p.configFile();
    if (!over.tenantId) return file;
    const other = join(dirname(file), `tenant-${over.tenantId}.yaml`);
    const tenant = xero().tenantIds[0]!;
    await writeFile(other, (await readFile(file, 'utf8')).replaceAll(tenant, over.tenantId));
    return other;
  };
  const check = async (file: string, args: string[] = [], env: Record<string, string> = {}) =>
    runCli(['check', ...args, '--config', file], { timeoutMs: 30_000, env: { ...p.secretEnv, ...env } });

  it('given working QuickBooks and Xero connections, when checked, then every check of both passes and it exits 0', async () => {
    const r = await check(await config());
    expect(r.code, r.err + r.out).toBe(0);
    expect(r.out).toContain('qbo-check (quickbooks): ok\n');
    expect(r.out).toContain('xero-check (xero): ok\n');
    expect(r.out).not.toMatch(/FAILED/);
    expect(r.out).toMatch(/ok {6}base currency {7}organisation INR = billing INR/);
    // Without http.publicUrl and http.documentLinkKey, each says why billing gets no links to its PDFs.
    for (const id of ['qbo-check', 'xero-check']) {
      const section = r.out.slice(r.out.indexOf(`${id} (`)).split(/\n(?=\S)/)[0]!;
      expect(section, id).toMatch(
        /\n {2}skipped PDF links {11}no links to the vendor's PDFs in billing: set http\.publicUrl and http\.documentLinkKey/,
      );
    }
  }, 60_000);

  it('given a Xero tenant the grant does not reach, when checked, then the reads fail naming settings.tenantId, and it exits 1', async () => {
    const r = await check(await config({ tenantId: '00000000-0000-4000-8000-000000000000' }), [
      '--connection',
      'xero-check',
    ]);
    expect(r.code, r.err + r.out).toBe(1);
    expect(r.out).toContain('xero-check (xero): FAILED\n');
    expect(line(r, 'token')).toMatch(/^ {2}ok /);
    const read = line(r, 'read invoices');
    expect(read).toMatch(/^ {2}FAILED {2}read invoices {7}.*403/);
    expect(read).toContain('fix: check settings.tenantId');
  }, 60_000);

  it('given a billing key billing does not know, when checked, then the billing key line says so and names billing.apiKey, and it exits 1', async () => {
    const r = await check(await config(), ['--connection', 'qbo-check'], { REL_BILLING_API_KEY: 'not-a-billing-key' });
    expect(r.code, r.err + r.out).toBe(1);
    const key = line(r, 'billing key');
    expect(key).toMatch(/^ {2}FAILED {2}billing key {9}billing GET \/external\/invoices → 401/);
    expect(key).toContain('fix: billing refused the key: set billing.apiKey');
    expect(r.out).not.toContain('not-a-billing-key');
    expect(line(r, 'read invoices')).toMatch(/^ {2}ok /);
  }, 60_000);

  it.each([
    ['qbo-check', () => qbo().tokens],
    ['xero-check', () => xero().tokens],
  ] as const)(
    'given the %s grant was revoked at the vendor, when checked, then the token line says re-consent with erp-sync connect, the reads are skipped, and it exits 1',
    async (id, tokens) => {
      const live = tokens().liveRefreshTokens[0]!;
      tokens().revoke();
      try {
        const r = await check(await config(), ['--connection', id]);
        expect(r.code, r.err + r.out).toBe(1);
        const token = line(r, 'token');
        expect(token).toMatch(/^ {2}FAILED {2}token {15}.*invalid_grant/);
        expect(token).toContain(`fix: re-consent: run erp-sync connect --connection ${id}`);
        expect(line(r, 'read invoices')).toBe('  skipped read invoices       needs a token that refreshes');
      } finally {
        tokens().consent(live);
      }
    },
    60_000,
  );
});
