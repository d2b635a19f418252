import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import type { ConnectionCheck } from '../../operations/check-connection.js';
import { type CliRun, expectOneLineError, runCli } from '../support/cli.js';
import { CONNECTION, type Harness, startHarness } from '../support/harness.js';

type Report = { ok: boolean; connections: ConnectionCheck[] };

/** `erp-sync check [--connection ID | --all] [--json]` against the Zoho and billing sandboxes over loopback. */
describe('erp-sync check (the command)', () => {
  let p: Harness;
  let dir: string;
  const cli = async (args: string[], env: Record<string, string> = {}, config?: string): Promise<CliRun> =>
    runCli(['check', ...args, '--config', config ?? (await p.configFile())], { env: { ...p.secretEnv, ...env } });
  /** A variant of the suite's config, written next to it. */
  const variant = async (name: string, change: (raw: any) => void): Promise<string> => {
    const raw = structuredClone(p.rawConfig);
    change(raw);
    const file = join(dir, `${name}.yaml`);
    await writeFile(file, toYaml(raw));
    return file;
  };
  const line = (r: CliRun, check: string) =>
    r.out.split('\n').find((l) => l.trimStart().includes(` ${check.padEnd(20)}`)) ?? '';

  beforeAll(async () => {
    p = await startHarness({ name: 'check-cli', invoices: 5 });
    dir = await mkdtemp(join(tmpdir(), 'check-cli-'));
  });
  afterAll(async () => {
    await p?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('given a working connection, when checked, then every check passes, one line each, and it exits 0', async () => {
    const r = await cli([]);
    expect(r.code, r.err + r.out).toBe(0);
    expect(r.out).toContain(`${CONNECTION} (zoho-books): ok\n`);
    expect(line(r, 'token')).toMatch(/^ {2}ok {6}token {15}refreshed, access token valid until \S+$/);
    expect(line(r, 'read customers')).toMatch(/ok {6}read customers {6}first page read: \d+ row\(s\)$/);
    expect(line(r, 'read invoices')).toMatch(/ok {6}read invoices {7}first page read: \d+ row\(s\)$/);
    expect(line(r, 'base currency')).toContain('ok      base currency       organisation INR = billing INR');
    expect(line(r, 'quota')).toMatch(/ok {6}quota {15}used minute \d+\/1000000, day \d+\/∞; vendor says left: /);
    expect(line(r, 'billing key')).toMatch(/ok {6}billing key {9}accepted \(company key-[0-9a-f]{8}\)$/);
    expect(line(r, 'attachment key')).toMatch(/ok {6}attachment key {6}accepted/);
    expect(r.out).not.toContain(p.secrets.billingApiKey);
    expect(r.out).not.toContain(p.secrets.zohoRefreshToken);

    const json = await cli(['--json', '--connection', CONNECTION]);
    expect(json.code, json.err).toBe(0);
    const report = JSON.parse(json.out) as Report;
    expect(report.ok).toBe(true);
    expect(report.connections.map((c) => c.checks.map((x) => [x.check, x.status]))).toEqual([
      [
        ['token', 'ok'],
        ['read customers', 'ok'],
        ['read invoices', 'ok'],
        ['base currency', 'ok'],
        ['quota', 'ok'],
        ['schedule', 'ok'],
        ['first sync', 'ok'],
        ['billing key', 'ok'],
        ['attachment key', 'ok'],
      ],
    ]);
  });

  it('given an organisation id the grant cannot read, when checked, then the reads fail naming it and the setting to fix, and it exits 1', async () => {
    const config = await variant('wrong-org', (raw) => (raw.connections[0].settings.organizationId = '999999999'));
    const r = await cli([], {}, config);
    expect(r.code, r.err + r.out).toBe(1);
    expect(r.out).toContain(`${CONNECTION} (zoho-books): FAILED\n`);
    expect(line(r, 'token')).toMatch(/^ {2}ok /);
    const read = line(r, 'read invoices');
    expect(read).toMatch(/^ {2}FAILED {2}read invoices {7}.*999999999/);
    expect(read).toContain('fix: check settings.organizationId');
    expect(line(r, 'base currency')).toBe('  skipped base currency       needs an entity read that works');
  });

  it("given the billing company's base currency differs from the organisation's, when checked, then the base currency check names both and the fix, and it exits 1", async () => {
    const config = await variant('usd', (raw) => (raw.billing.baseCurrency = 'USD'));
    const r = await cli([], {}, config);
    expect(r.code, r.err + r.out).toBe(1);
    expect(line(r, 'base currency')).toMatch(
      /^ {2}FAILED {2}base currency {7}organisation INR ≠ billing USD: .* — fix: connect the organisation whose base currency is USD, or set .*baseCurrency/,
    );
  });

  it('given a billing key billing does not know, when checked, then the billing key check says it was refused and what to set, and it exits 1', async () => {
    const r = await cli([], { REL_BILLING_API_KEY: 'not-a-billing-key' });
    expect(r.code, r.err + r.out).toBe(1);
    const billing = line(r, 'billing key');
    expect(billing).toMatch(/^ {2}FAILED {2}billing key {9}billing GET \/external\/invoices → 401/);
    expect(billing).toContain('fix: billing refused the key: set billing.apiKey');
    expect(r.out).not.toContain('not-a-billing-key');
    // The attachment key is its own and still accepted.
    expect(line(r, 'attachment key')).toMatch(/^ {2}ok /);
  });

  it('given the grant was revoked at the vendor, when checked, then the token check says re-consent, the reads are skipped, and it exits 1', async () => {
    p.zoho.tokens.revoke();
    try {
      const r = await cli([]);
      expect(r.code, r.err + r.out).toBe(1);
      const token = line(r, 'token');
      expect(token).toMatch(/^ {2}FAILED {2}token {15}zoho-accounts refused the token refresh \(invalid_code\)/);
      expect(token).toContain('fix: re-consent: ');
      expect(line(r, 'read invoices')).toBe('  skipped read invoices       needs a token that refreshes');
      expect(line(r, 'billing key')).toMatch(/^ {2}ok /);
    } finally {
      p.zoho.tokens.consent(p.secrets.zohoRefreshToken);
    }
    // A new consent: the same command passes again.
    expect((await cli([])).code).toBe(0);
  });

  it('given an unknown connection, or both --connection and --all, then exit 2 in one line', async () => {
    expect(expectOneLineError(await cli(['--connection', 'nope']))).toBe(
      `erp-sync: unknown connection "nope" (configured: ${CONNECTION})`,
    );
    expect(expectOneLineError(await cli(['--connection', CONNECTION, '--all']))).toContain(
      "'--connection' and '--all' cannot be used together",
    );
  });
});
