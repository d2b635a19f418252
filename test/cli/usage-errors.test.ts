import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../support/cli.js';
import { REPO_ROOT } from '../support/repo-paths.js';

/** Usage errors: one line naming the command's help, exit 2; help marks required options and lists every option. */
describe('erp-sync usage', () => {
  it('given --version, then it prints the package version and exits 0', async () => {
    const { version } = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    const r = await runCli(['--version']);
    expect(r.code, r.err).toBe(0);
    expect(r.out.trim()).toMatch(
      new RegExp(`^erp-sync ${version.replaceAll('.', '\\.')}( \\(commit [0-9a-f]+\\))? node v\\d+`),
    );
  });

  it('given an unknown option and no required ones, when backfill runs, then the unknown option is named in one line with the help to read', async () => {
    const r = await runCli(['backfill', '--bogus']);
    expect(expectOneLineError(r)).toBe("erp-sync: unknown option '--bogus'; see `erp-sync backfill --help`");
  });

  it('given a missing required option, then one line names it and the help, not the whole help', async () => {
    const r = await runCli(['backfill', '--from', '2025-01-01']);
    expect(expectOneLineError(r)).toBe(
      "erp-sync: required option '--connection <id>' not specified; see `erp-sync backfill --help`",
    );
    expect(r.err).not.toContain('Usage:');
  });

  it('given a bad option value, then one line says what is expected and names the subcommand help', async () => {
    const r = await runCli(['dlq', 'list', '--connection', 'x', '--entity', 'bills']);
    expect(expectOneLineError(r)).toBe(
      'erp-sync: --entity must be one of invoices, credit-notes, customers, got "bills"; see `erp-sync dlq list --help`',
    );
  });

  it('given an unknown command, then one line names it and the program help', async () => {
    const r = await runCli(['frob']);
    expect(expectOneLineError(r)).toBe("erp-sync: unknown command 'frob'; see `erp-sync --help`");
  });

  it('given backfill --help, then the required options are marked', async () => {
    const r = await runCli(['backfill', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/--connection <id>\s+connection id from the config \(required\)/);
    expect(r.out).toMatch(/--from <date>\s+first document date, YYYY-MM-DD \(required\)/);
    expect(r.out).not.toMatch(/--to <date>.*\(required\)/);
  });

  it('given demo --help, then it lists the options demo takes (those of its default subcommand)', async () => {
    const r = await runCli(['demo', '--help']);
    expect(r.code).toBe(0);
    for (const flag of ['--records <n>', '--seed <n>', '--json']) expect(r.out).toContain(flag);
  });
});
