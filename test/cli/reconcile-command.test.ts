import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackfill } from '../../cli/commands/backfill.js';
import { utcDate } from '../../src/billing/dates.js';
import { expectOneLineError } from '../support/cli.js';
import { CLI, COMPANY, CONNECTION, HISTORY, type Pipeline, REPO_ROOT, startPipeline } from '../support/pipeline.js';

/** `erp-sync reconcile` as a user runs it: exit 0 clean, 1 drift found, 2 could not reconcile. */
describe('erp-sync reconcile (the command)', () => {
  let p: Pipeline;
  const today = utcDate(Date.now());
  const run = async (args: string[], env: Record<string, string> = {}) => {
    const file = await p.configFile();
    const child = spawn(process.execPath, [CLI, 'reconcile', '--config', file, '--connection', CONNECTION, '--from', today, '--to', today, ...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...p.secretEnv, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (err += b));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    return { code, out, err };
  };

  beforeAll(async () => {
    p = await startPipeline({ name: 'reconcile-cli', invoices: 20 });
    p.startWorkers(['pull', 'upsert', 'backfill']);
    await runBackfill(p.rt, { connectionId: CONNECTION, entities: ['customers', 'invoices'], from: HISTORY.from, to: HISTORY.to }, { quiet: true });
    for (const inv of p.zoho.store.invoices().filter((i) => i.status === 'void')) {
      const e = await p.rt.ledger.get(CONNECTION, 'invoices', inv.invoice_id);
      if (e) await fetch(`${p.billing.url}/__admin/invoices/${encodeURIComponent(e.billingId)}/void?company=${COMPANY}`, { method: 'POST' });
    }
  }, 120_000);
  afterAll(() => p?.close());

  it('given a clean sync, then exit 0 and --json prints zero counts', async () => {
    const r = await run(['--json']);
    expect(r.code, r.err).toBe(0);
    const json = JSON.parse(r.out) as { total: number; counts: Record<string, number>; checked: { billing: number } };
    expect(json.total).toBe(0);
    expect(json.checked.billing).toBeGreaterThan(0);
  }, 60_000);

  it('given an orphan invoice in billing, then exit 1 and the report names it', async () => {
    await fetch(`${p.billing.url}/__admin/invoices?company=${COMPANY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        invoice: {
          invoiceId: 'stray-1',
          invoiceNumber: 'STRAY-1',
          invoiceSubtotal: 1,
          invoiceTotal: 1,
          invoiceOriginSource: 'EXTERNAL_SYSTEM_A',
          erpId: 'nobody',
        },
      }),
    });
    const r = await run([]);
    expect(r.code, r.err).toBe(1);
    expect(r.out).toMatch(/orphan_in_billing\s+1\s+needs a person/);
    expect(r.out).toContain('STRAY-1');
  }, 60_000);

  it('given an invoice altered in billing, when reconcile --repair runs, then it says per record what the repair did (re-enqueued, with its job id) and how many vendor calls it made', async () => {
    const [erpId, entry] = await (async () => {
      for await (const batch of p.rt.ledger.scan(CONNECTION, 'invoices')) {
        const found = batch.find(([, e]) => !e.sourceStatus || !/void|draft/i.test(e.sourceStatus));
        if (found) return found;
      }
      throw new Error('no written invoice');
    })();
    await fetch(`${p.billing.url}/__admin/invoices/${encodeURIComponent(entry.billingId)}/patch?company=${COMPANY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ invoiceTotal: 1 }),
    });
    const r = await run(['--repair']);
    expect(r.code, r.err).toBe(1);
    expect(r.out).toMatch(/repair by id: 1 record\(s\) read again from the source in \d+ vendor call\(s\); 1 re-enqueued and written/);
    expect(r.out).toMatch(new RegExp(`re-enqueued ${erpId} @\\S+ job up-\\S+-r[0-9a-f]+`));
    // Written again: the next reconcile no longer reports it (the orphan of the test above stays).
    const after = JSON.parse((await run(['--json'])).out) as { items: Array<{ erpId?: string }> };
    expect(after.items.filter((i) => i.erpId === erpId)).toEqual([]);
  }, 60_000);

  it('given billing unreachable, then exit 2 with a message saying what failed', async () => {
    // The same config, with billing on a port where nothing listens.
    const file = await p.configFile();
    const bad = join(dirname(file), 'unreachable.yaml');
    await writeFile(bad, (await readFile(file, 'utf8')).replace(p.billing.url, 'http://127.0.0.1:1'));
    const r = await run(['--config', bad]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/billing GET \/external\/invoices: network error ECONNREFUSED/);
  }, 60_000);

  it('given --report in a directory that does not exist, when reconcile runs, then exit 2 naming it before reading anything', async () => {
    const reads = p.journal('/external/invoices').length;
    const r = await run(['--report', '/nonexistent/dir/r.json']);
    expect(expectOneLineError({ ...r, signal: null })).toBe('erp-sync: --report /nonexistent/dir/r.json: directory /nonexistent/dir does not exist');
    expect(p.journal('/external/invoices').length).toBe(reads);
  }, 60_000);

  it('given --report naming a directory, when reconcile runs, then exit 2 saying so', async () => {
    const dir = join(dirname(await p.configFile()), 'a-directory');
    await mkdir(dir, { recursive: true });
    const r = await run(['--report', dir]);
    expect(expectOneLineError({ ...r, signal: null })).toContain(`--report ${dir} is a directory; name a file`);
  }, 60_000);

  it('given --report writable and the report in the file, when reconcile runs, then the file holds the JSON result', async () => {
    const file = join(dirname(await p.configFile()), 'report.json');
    const r = await run(['--report', file]);
    expect(r.code, r.err).not.toBe(2);
    const json = JSON.parse(await readFile(file, 'utf8')) as { connection: string; total: number };
    expect(json.connection).toBe(CONNECTION);
  }, 60_000);

  it.runIf(existsSync('/dev/full'))(
    'given the report cannot be written after the reconcile ran, then the result goes to stdout and exit 2 says why',
    async () => {
      // /dev/full passes the checks (its directory exists, it is writable) and every write to it fails.
      const r = await run(['--report', '/dev/full']);
      expect(expectOneLineError({ ...r, signal: null })).toMatch(
        /^erp-sync: could not write --report \/dev\/full: .*; the result was printed to stdout instead$/,
      );
      const json = JSON.parse(r.out) as { connection: string; counts: Record<string, number>; checked: { billing: number } };
      expect(json.connection).toBe(CONNECTION);
      expect(json.checked.billing).toBeGreaterThan(0);
    },
    60_000,
  );

  it('given an unknown connection, then exit 2 naming the configured ones', async () => {
    const r = await run(['--connection', 'no-such-connection']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('unknown connection "no-such-connection"');
  }, 60_000);
});
