import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { runCli } from '../support/cli.js';
import { REPO_ROOT } from '../support/repo-paths.js';

describe('erp-sync config check', () => {
  it('given a billing URL with credentials in it, when the config is checked, then the summary shows the URL without them', async () => {
    const config = parse(await readFile(join(REPO_ROOT, 'examples/sandbox.yaml'), 'utf8')) as {
      billing: { url: string };
    };
    config.billing.url = 'http://svc:CANARY-billing-pw@127.0.0.1:4010';
    const file = join(await mkdtemp(join(tmpdir(), 'erp-sync-config-')), 'c.yaml');
    await writeFile(file, stringify(config));
    const r = await runCli(['config', 'check', '--config', file]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('billing http://[Redacted]@127.0.0.1:4010');
    expect(r.out + r.err).not.toContain('CANARY-billing-pw');
  });

  it('given API tokens expiring within 14 days or expired, when the config is checked, then it warns of each, naming the token and never showing it', async () => {
    const config = parse(await readFile(join(REPO_ROOT, 'examples/sandbox.yaml'), 'utf8')) as Record<string, any>;
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    config.http = {
      ...config.http,
      tokens: [
        { name: 'contractor', token: 'CANARY-contractor-token-0001', role: 'viewer', expiresAt: inDays(3) },
        { name: 'old-auditor', token: 'CANARY-old-auditor-token-0001', role: 'viewer', expiresAt: inDays(-1) },
        { name: 'finance', token: 'CANARY-finance-token-0000001', role: 'operator', expiresAt: inDays(60) },
      ],
    };
    const file = join(await mkdtemp(join(tmpdir(), 'erp-sync-config-')), 'c.yaml');
    await writeFile(file, stringify(config));
    const r = await runCli(['config', 'check', '--config', file]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/warning: http\.tokens "old-auditor" expired at .*: it is refused \(401\)/);
    expect(r.out).toMatch(/warning: http\.tokens "contractor" expires in about 3 day\(s\)/);
    expect(r.out).not.toContain('"finance"');
    expect(r.out + r.err).not.toContain('CANARY');
  });
  it('given QuickBooks and Xero connections, when the config is checked without and then with http.publicUrl and http.documentLinkKey, then it says why they get no PDF links, then that they do, never showing the key', async () => {
    const config = parse(await readFile(join(REPO_ROOT, 'examples/sandbox.yaml'), 'utf8')) as Record<string, any>;
    const dir = await mkdtemp(join(tmpdir(), 'erp-sync-config-'));
    const without = join(dir, 'without.yaml');
    await writeFile(without, stringify({ ...config, http: { ...config.http, publicUrl: undefined } }));
    const off = await runCli(['config', 'check', '--config', without]);
    expect(off.code).toBe(0);
    expect(off.out).toMatch(
      /connection qbo-in: .*; no PDF links in billing: set http\.publicUrl and http\.documentLinkKey/,
    );
    expect(off.out).toMatch(
      /connection xero-in: .*; no PDF links in billing: set http\.publicUrl and http\.documentLinkKey/,
    );
    expect(off.out).not.toMatch(/connection zoho-in: .*PDF links/);

    const withLinks = join(dir, 'with.yaml');
    const key = 'CANARY-document-link-key-0123456789abcdef';
    await writeFile(
      withLinks,
      stringify({ ...config, http: { ...config.http, publicUrl: 'https://sync.example.test', documentLinkKey: key } }),
    );
    const on = await runCli(['config', 'check', '--config', withLinks]);
    expect(on.code).toBe(0);
    expect(on.out).toMatch(/connection qbo-in: .*; PDF links in billing$/m);
    expect(on.out + on.err).not.toContain('CANARY');
  });
});
