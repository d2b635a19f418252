import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { validateSettings } from '../../connectors/registry.js';
import type { Runtime } from '../../jobs/runtime.js';
import type { ReviewItem } from '../../operations/review-list.js';
import type { ReviewSummary } from '../../operations/review-summary.js';
import { parseConfig } from '../../src/config.js';
import { AuditLog } from '../../src/pipeline/audit-log.js';
import { type CliRun, expectOneLineError, runCli } from '../support/cli.js';
import { CONNECTION, type Harness, startHarness } from '../support/harness.js';

/**
 * `erp-sync review` as a person runs it, against a connection with `review: first-sync` whose backfill is
 * held: list, show, summary, reject one with a note, approve the rest at once (the first sync), with who.
 */
describe('erp-sync review (the command)', () => {
  let p: Harness;
  let rt: Runtime;
  let dir: string;
  let configFile: string;
  const review = (args: string[]): Promise<CliRun> =>
    runCli(['review', ...args, '--config', configFile], { env: { ...p.secretEnv, USER: 'frank' } });

  beforeAll(async () => {
    p = await startHarness({ name: 'review-cli', invoices: 8 });
    const raw = structuredClone(p.rawConfig) as { connections: Array<Record<string, unknown>> };
    raw.connections[0]!.review = 'first-sync';
    rt = await p.newRuntime(parseConfig(raw, p.secretEnv, validateSettings, 'review config'));
    dir = await mkdtemp(join(tmpdir(), 'review-cli-'));
    configFile = join(dir, 'erp-sync.yaml');
    await writeFile(configFile, toYaml(raw));
    p.startWorkers(['pull', 'upsert', 'backfill'], rt);
    const { runId } = await p.backfill();
    await p.waitForBackfill(runId);
    await p.waitForDrain();
  });
  afterAll(async () => {
    await p?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('when list --json runs, then every held record is listed with its rule, and nothing reached billing', async () => {
    const r = await review(['list', '--connection', CONNECTION, '--json']);
    expect(r.code).toBe(0);
    const items = JSON.parse(r.out) as ReviewItem[];
    expect(items.length).toBe((await rt.review.list(CONNECTION)).length);
    expect(items.every((i) => i.rule === 'first-sync' && i.state === 'held')).toBe(true);
    const invoice = items.find((i) => i.entity === 'invoices')!;
    expect(invoice).toMatchObject({
      currency: expect.any(String),
      total: expect.any(String),
      number: expect.any(String),
    });
    expect(p.billingInvoices().size).toBe(0);
  });

  it('when show runs for a held invoice, then it prints the body that would be sent and the rule; for a record not held, exit 1', async () => {
    const [e] = (await rt.review.list(CONNECTION)).filter((x) => x.entity === 'invoices');
    const r = await review(['show', '--connection', CONNECTION, '--entity', 'invoices', '--erp-id', e!.erpId]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({
      entry: { rule: 'first-sync', erpId: e!.erpId },
      body: { kind: 'invoice', invoice: { erpId: e!.erpId } },
    });
    const none = await review(['show', '--connection', CONNECTION, '--entity', 'invoices', '--erp-id', 'nope']);
    expect(none.code).toBe(1);
    expect(none.out).toContain('is not held for review');
  });

  it('when summary --json runs, then it counts the held records by entity', async () => {
    const r = await review(['summary', '--connection', CONNECTION, '--json']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.out) as ReviewSummary;
    const held = await rt.review.list(CONNECTION);
    expect(s.held).toBe(held.length);
    expect(s.totals.reduce((n, t) => n + t.count, 0)).toBe(held.filter((e) => e.entity === 'invoices').length);
  });

  it('when status runs, then the connection shows its records held for review, by rule', async () => {
    const held = (await rt.review.list(CONNECTION)).filter((e) => e.state === 'held').length;
    const r = await runCli(['status', '--config', configFile], { env: p.secretEnv });
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      `  review (first-sync): ${held} held (first-sync ${held}; erp-sync review list --connection ${CONNECTION})`,
    );
  });

  it('given neither --erp-id nor --all, or an unknown connection, then exit 2 with one line', async () => {
    expect(expectOneLineError(await review(['approve', '--connection', CONNECTION]))).toContain(
      'needs --erp-id (one or more) or --all',
    );
    expect(expectOneLineError(await review(['reject', '--connection', 'nope', '--all', '--note', 'x']))).toContain(
      'unknown connection "nope"',
    );
  });

  it('when one invoice is rejected with a note and the rest approved at once, then billing gets all but the rejected one, and the audit log names who', async () => {
    const [rejected] = (await rt.review.list(CONNECTION)).filter((x) => x.entity === 'invoices');
    const r1 = await review(['reject', '--connection', CONNECTION, '--erp-id', rejected!.erpId, '--note', 'not ours']);
    expect(r1.code).toBe(0);
    expect(r1.out).toContain('rejected 1 by frank');
    const r2 = await review(['approve', '--connection', CONNECTION, '--all']);
    expect(r2.code).toBe(0);
    expect(r2.out).toContain(`the first sync of ${CONNECTION} is approved`);
    await p.waitForDrain();
    expect((await p.compareWithSource({ except: new Set([rejected!.erpId]) })).problems).toEqual([]);
    expect(p.billingInvoices().has(rejected!.erpId)).toBe(false);
    expect(await rt.review.list(CONNECTION)).toEqual([
      expect.objectContaining({ erpId: rejected!.erpId, state: 'rejected', by: 'frank', note: 'not ours' }),
    ]);
    const audit = await new AuditLog(rt.redis, rt.config.redis.prefix).list({ limit: 5 });
    expect(audit.map((a) => [a.action, a.who, a.status])).toEqual([
      ['review.approve', 'frank', 0],
      ['review.reject', 'frank', 0],
    ]);
    const list = await review(['list', '--connection', CONNECTION]);
    expect(list.out).toContain('REJECTED by frank: not ours');
    expect(list.out).toContain('0 held, 1 rejected');
  });
});
