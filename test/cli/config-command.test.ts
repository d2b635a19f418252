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
});
