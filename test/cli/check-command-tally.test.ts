import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { type BillingEmulator, startBillingEmulator } from '../../sandbox/billing/billing-emulator.js';
import { startTallyEmulator, type TallyEmulator } from '../../sandbox/tally/index.js';
import { type CliRun, runCli } from '../support/cli.js';
import { connect as connectRedis, dropPrefix, TEST_REDIS_URL } from '../support/redis.js';

/**
 * `erp-sync check` for a Tally connection against the TallyPrime emulator over loopback: no token (TallyPrime
 * takes no credentials), the company loaded, the voucher types the streams read, the GST tax ledgers with
 * their rates; a closed company or a missing voucher type fails on its own line with the fix, exit 1.
 */
const BILLING_KEY = `check-tally-key-${randomBytes(4).toString('hex')}`;
const ATTACH_KEY = `check-tally-attach-${randomBytes(4).toString('hex')}`;

const line = (r: CliRun, check: string) =>
  r.out.split('\n').find((l) => l.trimStart().includes(` ${check.padEnd(20)}`)) ?? '';

describe('erp-sync check against the TallyPrime emulator', () => {
  let billing: BillingEmulator;
  let tally: TallyEmulator;
  let dir: string;
  let file: string;
  const redis = connectRedis();
  const prefix = `test-check-tally-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    billing = await startBillingEmulator({
      port: 0,
      keys: [{ key: BILLING_KEY, companyId: 'checkt' }],
      attachmentKeys: [{ key: ATTACH_KEY, companyId: 'checkt' }],
    });
    tally = await startTallyEmulator({ port: 0, seed: 4, invoices: 5, creditNotes: 1, customers: 4 });
    dir = await mkdtemp(join(tmpdir(), 'check-tally-'));
    file = join(dir, 'erp-sync.yaml');
    await writeFile(
      file,
      toYaml({
        billing: { url: billing.url, apiKey: BILLING_KEY, attachmentKey: ATTACH_KEY, baseCurrency: 'INR' },
        redis: { url: TEST_REDIS_URL, prefix },
        connections: [
          {
            id: 'tally-check',
            system: 'tally',
            originSource: 'OTHER',
            rateBudget: { perMinute: 1_000_000, concurrency: 1 },
            settings: { url: tally.url, company: tally.companyName, timeoutMs: 5000 },
          },
        ],
      }),
    );
  });
  afterEach(() => tally.setLoaded(true));
  afterAll(async () => {
    await tally?.close();
    await billing?.close();
    await dropPrefix(redis, prefix);
    await redis.quit();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const check = () => runCli(['check', '--config', file], { timeoutMs: 60_000 });

  it('given a loaded company with its voucher types and GST ledgers, when checked, then every check passes (no token to refresh) and it exits 0', async () => {
    const r = await check();
    expect(r.code, r.err + r.out).toBe(0);
    expect(r.out).toContain('tally-check (tally): ok\n');
    expect(line(r, 'token')).toBe('  skipped token               this connector does not use OAuth tokens');
    expect(line(r, 'read invoices')).toMatch(/^ {2}ok {6}read invoices {7}first page read/);
    expect(line(r, 'company')).toBe(
      `  ok      company             "${tally.companyName}" loaded (Karnataka, GSTIN ${tally.store.company.gstin})`,
    );
    expect(line(r, 'voucher types')).toBe('  ok      voucher types       Sales, Credit Note');
    expect(line(r, 'tax ledgers')).toMatch(/^ {2}ok {6}tax ledgers {9}\d+ GST ledger\(s\) with rates/);
  }, 90_000);

  it('given the company is closed in TallyPrime, when checked, then the reads fail saying so with the fix, and it exits 1', async () => {
    tally.setLoaded(false);
    const r = await check();
    expect(r.code, r.err + r.out).toBe(1);
    const read = line(r, 'read invoices');
    expect(read).toMatch(/^ {2}FAILED {2}read invoices {7}.*is not loaded in TallyPrime \(open it in Tally/);
    expect(read).toContain('settings.url (TallyPrime running as a server, the company open)');
    expect(line(r, 'company')).toBe('');
  }, 90_000);

  it('given the company has no Credit Note voucher type, when checked, then that line fails naming it and the fix, and it exits 1', async () => {
    tally.store.dropVoucherType('Credit Note');
    const r = await check();
    expect(r.code, r.err + r.out).toBe(1);
    const types = line(r, 'voucher types');
    expect(types).toMatch(/^ {2}FAILED {2}voucher types {7}the company has no voucher type "Credit Note"/);
    expect(types).toContain('fix: in TallyPrime, activate the voucher type');
  }, 90_000);
});
