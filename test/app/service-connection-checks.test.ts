import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialsRefusedError } from '../../src/errors/index.js';
import { CONNECTION, type Harness, startHarness } from '../support/harness.js';

/** `erp-sync worker` runs the connections' checks (`erp-sync check`) once at start and logs them. */
describe('the worker start: connection checks', () => {
  let p: Harness;

  beforeAll(async () => {
    p = await startHarness({ name: 'service-checks', invoices: 5 });
  });
  afterAll(() => p?.close());

  it('given a billing key billing refuses, when the worker starts, then it logs one line per check, the failure at warn with its fix, and keeps running', async () => {
    const worker = await p.spawnWorker(['upsert'], { REL_BILLING_API_KEY: 'not-a-billing-key' });
    await worker.waitForOutput('connection check ok: attachment key');
    const lines = worker
      .output()
      .split('\n')
      .filter((l) => l.includes('"connection check'))
      .map(
        (l) =>
          JSON.parse(l) as {
            level: number;
            msg: string;
            connection: string;
            check: string;
            status: string;
            detail: string;
            fix?: string;
          },
      );
    expect(lines.map((l) => [l.check, l.status])).toEqual([
      ['token', 'ok'],
      ['read customers', 'ok'],
      ['read invoices', 'ok'],
      ['base currency', 'ok'],
      ['quota', 'ok'],
      // Before the first sync, the start report also says what the schedule costs and how long a first sync takes.
      ['schedule', 'ok'],
      ['first sync', 'ok'],
      ['billing key', 'failed'],
      ['attachment key', 'ok'],
    ]);
    expect(lines.every((l) => l.connection === CONNECTION)).toBe(true);
    const failed = lines.find((l) => l.status === 'failed')!;
    expect(failed).toMatchObject({ level: 40, msg: 'connection check failed: billing key' });
    expect(failed.detail).toContain('→ 401');
    expect(failed.fix).toContain('billing refused the key: set billing.apiKey');
    expect(lines.filter((l) => l.status === 'ok').every((l) => l.level === 30)).toBe(true);
    expect(worker.output()).not.toContain('not-a-billing-key');
    // The start did not fail: the worker is still running.
    expect(worker.proc.exitCode).toBeNull();
  });

  it('given the vendor already refused the grant, when the worker starts, then the token check warns re-consent without calling the token endpoint again, and the reads are skipped', async () => {
    p.zoho.tokens.revoke();
    try {
      await p.rt.tokens.reset(CONNECTION);
      await expect(p.rt.vendorClient(CONNECTION).options.auth!.token()).rejects.toBeInstanceOf(CredentialsRefusedError);
      const tokenCalls = () => p.zoho.journal.list({ path: '/oauth/v2/token' }).length;
      const before = tokenCalls();
      const worker = await p.spawnWorker(['upsert']);
      await worker.waitForOutput('connection check ok: attachment key');
      const lines = worker
        .output()
        .split('\n')
        .filter((l) => l.includes('"connection check'))
        .map((l) => JSON.parse(l) as { level: number; check: string; status: string; detail: string; fix?: string });
      const token = lines.find((l) => l.check === 'token')!;
      expect(token).toMatchObject({ level: 40, status: 'failed' });
      expect(token.detail).toMatch(/^the vendor refused the refresh token at \S+ \(/);
      expect(token.fix).toMatch(/^re-consent: /);
      expect(lines.find((l) => l.check === 'read invoices')).toMatchObject({
        status: 'skipped',
        detail: 'needs a token that refreshes',
      });
      expect(tokenCalls()).toBe(before);
      expect(worker.proc.exitCode).toBeNull();
    } finally {
      p.zoho.tokens.consent(p.secrets.zohoRefreshToken);
    }
  });
});
