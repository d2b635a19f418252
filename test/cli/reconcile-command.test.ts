import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackfill } from '../../cli/commands/backfill.js';
import { utcDate } from '../../src/billing/dates.js';
import type { LedgerEntry } from '../../src/pipeline/ledger.js';
import { expectOneLineError } from '../support/cli.js';
import { CLI, COMPANY, CONNECTION, HISTORY, type Harness, REPO_ROOT, startHarness } from '../support/harness.js';

/** `erp-sync reconcile --config <the pipeline's> --connection <its connection> …args`, as a user runs it. */
async function reconcileCli(p: Harness, args: string[]) {
  const file = await p.configFile();
  const child = spawn(process.execPath, [CLI, 'reconcile', '--config', file, '--connection', CONNECTION, ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...p.secretEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (b) => (out += b));
  child.stderr.on('data', (b) => (err += b));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, out, err };
}

/** `erp-sync reconcile` as a user runs it: exit 0 clean, 1 drift found, 2 could not reconcile. */
describe('erp-sync reconcile (the command)', () => {
  let p: Harness;
  const today = utcDate(Date.now());
  const run = (args: string[]) => reconcileCli(p, ['--from', today, '--to', today, ...args]);

  beforeAll(async () => {
    p = await startHarness({ name: 'reconcile-cli', invoices: 20 });
    p.startWorkers(['pull', 'upsert', 'backfill']);
    await runBackfill(
      p.rt,
      { connectionId: CONNECTION, entities: ['customers', 'invoices'], from: HISTORY.from, to: HISTORY.to },
      { quiet: true },
    );
    for (const inv of p.zoho.store.invoices().filter((i) => i.status === 'void')) {
      const e = await p.rt.ledger.get(CONNECTION, 'invoices', inv.invoice_id);
      if (e)
        await fetch(`${p.billing.url}/__admin/invoices/${encodeURIComponent(e.billingId)}/void?company=${COMPANY}`, {
          method: 'POST',
        });
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
    expect(r.out).toMatch(
      /repair by id: 1 record\(s\) read again from the source in \d+ vendor call\(s\); 1 re-enqueued and written/,
    );
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
    expect(expectOneLineError({ ...r, signal: null })).toBe(
      'erp-sync: --report /nonexistent/dir/r.json: directory /nonexistent/dir does not exist',
    );
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
      const json = JSON.parse(r.out) as {
        connection: string;
        counts: Record<string, number>;
        checked: { billing: number };
      };
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

interface HistoryJson {
  history: boolean;
  from: string | null;
  to: string | null;
  total: number;
  needsPerson: number;
  counts: Record<string, number>;
  checked: { billing: number; ledger: number; source: number };
  items: Array<{ kind: string; erpId?: string; invoiceId?: string; needsPerson?: boolean }>;
  windows: { compared: number; disagreeing: Array<{ window: string; billing: number; ledger: number }> };
  billingCalls: number;
  vendorCalls: number;
  repaired?: { by?: string; records?: Array<{ erpId: string; action: string }> };
}

/**
 * `erp-sync reconcile --history`: billing's and the ledger's counts over the connection's whole history
 * (by invoice date), halved where they differ and compared id by id there, so an invoice deleted in
 * billing days after it was synced is found although no window of UPDATED_AT days holds it.
 */
describe('erp-sync reconcile --history (the command)', () => {
  let p: Harness;
  const run = (args: string[]) => reconcileCli(p, args);
  const json = async (args: string[]) => {
    const r = await run([...args, '--json']);
    return { code: r.code, err: r.err, result: r.out ? (JSON.parse(r.out) as HistoryJson) : undefined };
  };
  const admin = async (path: string, body?: object) => {
    const res = await fetch(`${p.billing.url}/__admin${path}${path.includes('?') ? '&' : '?'}company=${COMPANY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
    if (!res.ok) throw new Error(`admin ${path}: ${res.status} ${await res.text()}`);
  };
  /** Written invoices the source holds live (not void, not a draft), with an invoice date. */
  const liveInvoices = async () => {
    const out: Array<[string, LedgerEntry]> = [];
    for await (const batch of p.rt.ledger.scan(CONNECTION, 'invoices'))
      out.push(...batch.filter(([, e]) => e.fields?.invoiceDate && !/void|draft/i.test(e.sourceStatus ?? '')));
    return out;
  };
  let deleted: [string, LedgerEntry];
  const deleteDay = utcDate(Date.now() + 3 * 86_400_000);

  beforeAll(async () => {
    // Small windows (two records) so the narrowing, and a deep read, stop well short of the whole history.
    p = await startHarness({
      name: 'reconcile-history-cli',
      invoices: 20,
      reconcile: { countInvariant: { leafRecords: 2 } },
    });
    p.startWorkers(['pull', 'upsert', 'backfill']);
    await runBackfill(
      p.rt,
      { connectionId: CONNECTION, entities: ['customers', 'invoices'], from: HISTORY.from, to: HISTORY.to },
      { quiet: true },
    );
    deleted = (await liveInvoices())[0]!;
  }, 120_000);
  afterAll(() => p?.close());

  it('given a clean history, when reconcile --history --deep runs, then exit 0: the span counted in 3 billing calls, no window disagreeing, the vendor not read', async () => {
    const vendorRequests = p.zoho.journal.list().length;
    const { code, err, result } = await json(['--history', '--deep']);
    expect(code, err).toBe(0);
    expect(result).toMatchObject({
      history: true,
      total: 0,
      billingCalls: 3,
      vendorCalls: 0,
      windows: { compared: 1, disagreeing: [] },
    });
    expect(result!.checked.ledger).toBe(await p.rt.ledger.count(CONNECTION, 'invoices'));
    expect(result!.checked.billing).toBe(result!.checked.ledger);
    expect(result!.from! <= deleted[1].fields!.invoiceDate! && deleted[1].fields!.invoiceDate! <= result!.to!).toBe(
      true,
    );
    expect(p.zoho.journal.list().length).toBe(vendorRequests);
  }, 60_000);

  it('given an invoice synced today and deleted in billing three days later, then a reconcile of the day of the delete is clean and reconcile --history finds it (missing_in_billing), in a window holding its invoice date', async () => {
    await admin('/clock', { now: `${deleteDay}T10:00:00Z` });
    await admin(`/invoices/${encodeURIComponent(deleted[1].billingId)}/delete`);
    await admin('/clock', { now: null });

    const windowed = await run(['--from', deleteDay, '--to', deleteDay, '--json']);
    expect(windowed.code, windowed.err).toBe(0);
    const { code, err, result } = await json(['--history']);
    expect(code, err).toBe(1);
    expect(result!.items).toEqual([
      expect.objectContaining({ kind: 'missing_in_billing', erpId: deleted[0], invoiceId: deleted[1].billingId }),
    ]);
    expect(result!.windows.disagreeing).toHaveLength(1);
    const [from, to] = result!.windows.disagreeing[0]!.window.split('..');
    expect(from! <= deleted[1].fields!.invoiceDate! && deleted[1].fields!.invoiceDate! <= to!).toBe(true);
    expect(result!.windows.compared).toBeGreaterThan(1);
  }, 60_000);

  it('given that drift, when reconcile --history prints for a person, then it names the invoice dates counted, the disagreeing window and the record', async () => {
    const r = await run(['--history']);
    expect(r.code, r.err).toBe(1);
    expect(r.out).toMatch(
      /^reconcile \S+ history, invoice dates \d{4}-\d{2}-\d{2} → \d{4}-\d{2}-\d{2}: \d+ billing, \d+ ledger records counted in [\d.]+ s \(\d+ billing listing calls\)$/m,
    );
    expect(r.out).toMatch(/\d+ window\(s\) counted; 1 disagreeing, compared id by id/);
    expect(r.out).toMatch(/missing_in_billing\s+1\s+fixable by --repair/);
    expect(r.out).toContain(deleted[0]);
  }, 60_000);

  it('given that drift, when reconcile --history --deep runs, then the source is read for the disagreeing window only (its ledger records, by id) and the invoice it holds live stays missing', async () => {
    const before = p.zoho.journal.list().length;
    const { code, err, result } = await json(['--history', '--deep']);
    expect(code, err).toBe(1);
    const window = result!.windows.disagreeing[0]!;
    expect(result!.checked.source).toBe(window.ledger);
    expect(result!.checked.source).toBeLessThan(result!.checked.ledger);
    expect(result!.vendorCalls).toBeGreaterThan(0);
    expect(p.zoho.journal.list().length - before).toBe(result!.vendorCalls);
    expect(result!.items).toEqual([expect.objectContaining({ kind: 'missing_in_billing', erpId: deleted[0] })]);
  }, 60_000);

  it('given also an invoice billing lost (moved to another origin source), when reconcile --history --repair runs, then the lost one is written again and the deleted one, refused by billing, is deleted_in_billing_only as in a windowed run', async () => {
    const lost = (await liveInvoices()).find(([id]) => id !== deleted[0])!;
    await admin(`/invoices/${encodeURIComponent(lost[1].billingId)}/patch`, {
      invoiceOriginSource: 'EXTERNAL_SYSTEM_C',
    });
    const repair = await json(['--history', '--repair']);
    expect(repair.code, repair.err).toBe(1);
    expect(repair.result!.counts.missing_in_billing).toBe(2);
    expect(repair.result!.repaired).toMatchObject({ by: 'id' });
    expect(repair.result!.repaired!.records!.map((r) => [r.erpId, r.action]).sort()).toEqual(
      [
        [deleted[0], 're-enqueued'],
        [lost[0], 're-enqueued'],
      ].sort(),
    );

    const after = await json(['--history']);
    expect(after.code, after.err).toBe(1);
    expect(after.result!.items).toEqual([
      expect.objectContaining({ kind: 'deleted_in_billing_only', erpId: deleted[0], needsPerson: true }),
    ]);
    expect(after.result!.needsPerson).toBe(1);
  }, 90_000);

  it('given --history with --from, then exit 2 with one line saying they do not go together, before reading anything', async () => {
    const reads = p.journal('/external/invoices').length;
    const r = await run(['--history', '--from', '2026-01-01']);
    expect(expectOneLineError({ ...r, signal: null })).toMatch(
      /option '--history' cannot be used with option '--from <date>'/,
    );
    expect(p.journal('/external/invoices').length).toBe(reads);
  });

  it('given neither --history nor --from/--to, then exit 2 with one line naming both ways', async () => {
    const r = await run(['--to', '2026-01-01']);
    expect(expectOneLineError({ ...r, signal: null })).toBe(
      "erp-sync: required option '--from <date>' not specified (or give --history); see `erp-sync reconcile --help`",
    );
  });
});
