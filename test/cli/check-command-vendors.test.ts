import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { type BillingEmulator, startBillingEmulator } from '../../sandbox/billing/billing-emulator.js';
import {
  QBO_SANDBOX_DEFAULTS,
  type RunningQuickBooksEmulator,
  startQuickBooksEmulator,
} from '../../sandbox/quickbooks/index.js';
import {
  INDIA_TENANT_ID,
  startXeroEmulator,
  XERO_SANDBOX_DEFAULTS,
  type XeroEmulator,
} from '../../sandbox/xero/index.js';
import { type CliRun, runCli } from '../support/cli.js';
import { connect as connectRedis, dropPrefix, TEST_REDIS_URL } from '../support/redis.js';

/**
 * `erp-sync check` against the QuickBooks and Xero sandboxes over loopback (the Zoho one is in
 * check-command.test.ts): all green; a revoked grant, a tenant the grant does not reach, a billing key
 * billing does not know each fail on their own line, naming the cause and the fix, and exit 1.
 */
const BILLING_KEY = `check-vendors-key-${randomBytes(4).toString('hex')}`;
const ATTACH_KEY = `check-vendors-attach-${randomBytes(4).toString('hex')}`;

const line = (r: CliRun, check: string) =>
  r.out.split('\n').find((l) => l.trimStart().includes(` ${check.padEnd(20)}`)) ?? '';

describe('erp-sync check against the QuickBooks and Xero sandboxes', () => {
  let billing: BillingEmulator;
  let qbo: RunningQuickBooksEmulator;
  let xero: XeroEmulator;
  let dir: string;
  const redis = connectRedis();
  const prefix = `test-check-vendors-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    billing = await startBillingEmulator({
      port: 0,
      keys: [{ key: BILLING_KEY, companyId: 'checkv' }],
      attachmentKeys: [{ key: ATTACH_KEY, companyId: 'checkv' }],
    });
    qbo = await startQuickBooksEmulator({ port: 0, seed: 9, records: 5, customers: 5, creditMemos: 0 });
    xero = await startXeroEmulator({ port: 0, seed: 9, records: 5, contacts: 5, creditNotes: 0 });
    dir = await mkdtemp(join(tmpdir(), 'check-vendors-'));
  });
  afterAll(async () => {
    await qbo?.close();
    await xero?.close();
    await billing?.close();
    await dropPrefix(redis, prefix);
    await redis.quit();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const config = async (over: { apiKey?: string; tenantId?: string } = {}): Promise<string> => {
    const file = join(dir, `${randomBytes(3).toString('hex')}.yaml`);
    const q = QBO_SANDBOX_DEFAULTS;
    const x = XERO_SANDBOX_DEFAULTS;
    const common = {
      originSource: 'EXTERNAL_SYSTEM_A',
      entities: ['customers', 'invoices'],
      rateBudget: { perMinute: 1_000_000, concurrency: 4 },
    };
    await writeFile(
      file,
      toYaml({
        billing: {
          url: billing.url,
          apiKey: over.apiKey ?? BILLING_KEY,
          attachmentKey: ATTACH_KEY,
          baseCurrency: 'INR',
        },
        redis: { url: TEST_REDIS_URL, prefix },
        connections: [
          {
            id: 'qbo-check',
            system: 'quickbooks',
            ...common,
            settings: {
              realmId: qbo.realmId,
              clientId: q.clientId,
              clientSecret: q.clientSecret,
              refreshToken: q.refreshToken,
              baseUrl: qbo.url,
              tokenUrl: `${qbo.url}/oauth2/v1/tokens/bearer`,
              throttleWaitMs: 0,
            },
          },
          {
            id: 'xero-check',
            system: 'xero',
            ...common,
            originSource: 'EXTERNAL_SYSTEM_B',
            settings: {
              tenantId: over.tenantId ?? INDIA_TENANT_ID,
              clientId: x.clientId,
              clientSecret: x.clientSecret,
              refreshToken: x.refreshToken,
              baseUrl: `${xero.url}/api.xro/2.0`,
            },
          },
        ],
      }),
    );
    return file;
  };
  const check = async (file: string, args: string[] = []) =>
    runCli(['check', ...args, '--config', file], { timeoutMs: 30_000 });

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
    const r = await check(await config({ apiKey: 'not-a-billing-key' }), ['--connection', 'qbo-check']);
    expect(r.code, r.err + r.out).toBe(1);
    const key = line(r, 'billing key');
    expect(key).toMatch(/^ {2}FAILED {2}billing key {9}billing GET \/external\/invoices → 401/);
    expect(key).toContain('fix: billing refused the key: set billing.apiKey');
    expect(r.out).not.toContain('not-a-billing-key');
    expect(line(r, 'read invoices')).toMatch(/^ {2}ok /);
  }, 60_000);

  it.each([
    ['qbo-check', () => qbo.tokens],
    ['xero-check', () => xero.tokens],
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
