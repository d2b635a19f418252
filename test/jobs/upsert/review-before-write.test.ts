import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateSettings } from '../../../connectors/registry.js';
import type { Runtime } from '../../../jobs/runtime.js';
import { collector } from '../../../app/service.js';
import { runReconcile } from '../../../jobs/reconcile/run-reconcile.js';
import { documentTotal } from '../../../jobs/upsert/review-rule.js';
import { explainRecord } from '../../../operations/explain-record.js';
import { approveReview } from '../../../operations/review-approve.js';
import { bodyOf } from '../../../operations/review-list.js';
import { rejectReview } from '../../../operations/review-reject.js';
import { showReview } from '../../../operations/review-show.js';
import { summarizeReview } from '../../../operations/review-summary.js';
import { parseConfig } from '../../../src/config.js';
import { dec } from '../../../src/mapping/money.js';
import { AUDITED } from '../../../operations/audited-actions.js';
import { audited } from '../../../operations/audited.js';
import { CONNECTION, type Harness, startHarness } from '../../support/harness.js';

/**
 * Review before write (`connections[].review`), on real parts: the Zoho and billing emulators, real Redis,
 * in-process workers on a runtime whose connection has a review config. A held record is settled by its
 * upsert without a billing write, waits in the review queue, and reaches billing only once approved.
 */
const INVOICES = 12;

/** Workers (pull, upsert, backfill) on a runtime of the harness's config with the connection's `review`. */
async function workersWithReview(p: Harness, review: unknown): Promise<Runtime> {
  const raw = structuredClone(p.rawConfig) as { connections: Array<Record<string, unknown>> };
  raw.connections[0]!.review = review;
  const rt = await p.newRuntime(parseConfig(raw, p.secretEnv, validateSettings, 'review config'));
  p.startWorkers(['pull', 'upsert', 'backfill'], rt);
  return rt;
}

/** `erpsync_records_held` by rule, as the service's collector sets it from Redis. */
async function heldGauge(rt: Runtime): Promise<Record<string, number>> {
  await collector(rt)();
  const { values } = await rt.metrics.recordsHeld.get();
  return Object.fromEntries(
    values.filter((v) => v.labels.connection === CONNECTION && v.value > 0).map((v) => [v.labels.rule, v.value]),
  );
}

/** A person's decision, written to the deployment's audit log as every front end writes it (operations/audited.ts). */
const approve = (rt: Runtime, s: Parameters<typeof approveReview>[1], by: string) =>
  audited(
    { audit: rt.audit, logger: rt.logger, who: by, via: 'test' },
    { action: AUDITED.approve.action, connection: s.connection },
    () => approveReview(rt, s, by),
    (r) => r.told,
  );
const reject = (rt: Runtime, s: Parameters<typeof rejectReview>[1], decision: { by: string; note: string }) =>
  audited(
    { audit: rt.audit, logger: rt.logger, who: decision.by, via: 'test' },
    { action: AUDITED.reject.action, connection: s.connection },
    () => rejectReview(rt, s, decision),
    (r) => r.told,
  );

/** Invoices the source lets us edit (issued, unpaid, not void). */
function editable(p: Harness): string[] {
  return p.zoho.store
    .invoices()
    .filter((i) => i.status !== 'void' && i.status !== 'draft' && i.payments.length === 0 && i.writeOffMinor === 0)
    .map((i) => i.invoice_id);
}

/** An incremental pull of the invoices, as the scheduler would add it, run to the end with its upserts. */
async function pullInvoices(p: Harness): Promise<void> {
  await p.rt.queues.pull.add('pull', { connectionId: CONNECTION, entity: 'invoices' }, { priority: 1 });
  await p.waitForDrain();
}

async function backfill(p: Harness): Promise<void> {
  const { runId } = await p.backfill();
  await p.waitForBackfill(runId);
  await p.waitForDrain();
}

const billingPosts = (p: Harness) => p.journal().filter((e) => e.method === 'POST').length;

describe('given a connection with review: all', () => {
  let p: Harness;
  let rt: Runtime;
  beforeAll(async () => {
    p = await startHarness({ name: 'review-all', invoices: INVOICES });
    rt = await workersWithReview(p, 'all');
  });
  afterAll(() => p?.close());

  it('when its history is synced, then billing receives nothing and every record is held, none quarantined or in flight', async () => {
    await backfill(p);
    expect(billingPosts(p)).toBe(0);
    expect(p.billingInvoices().size).toBe(0);
    const held = await rt.review.list(CONNECTION);
    const { mapped } = await p.expectedInvoices();
    expect(
      held
        .filter((e) => e.entity === 'invoices')
        .map((e) => e.erpId)
        .sort(),
    ).toEqual([...mapped.keys()].sort());
    expect(held.filter((e) => e.entity === 'customers').length).toBeGreaterThan(0);
    expect(held.every((e) => e.state === 'held' && e.rule === 'all')).toBe(true);
    expect(await rt.review.countByRule(CONNECTION)).toEqual({ all: held.length });
    expect(await heldGauge(rt)).toEqual({ all: held.length });
    expect(await rt.quarantine.list(CONNECTION)).toEqual([]);
    expect(await rt.inFlight.count(CONNECTION)).toBe(0);
    // The record's history says it was held, by which rule.
    const [first] = held.filter((e) => e.entity === 'invoices');
    const history = await rt.recordHistory.list(CONNECTION, 'invoices', first!.erpId);
    expect(history.at(-1)).toMatchObject({ outcome: 'held', reason: 'all', version: first!.version });
  });

  it('when a held invoice is shown, then it comes with the body that would be sent and the rule that held it', async () => {
    const [e] = (await rt.review.list(CONNECTION)).filter((x) => x.entity === 'invoices');
    const shown = await showReview(rt, CONNECTION, 'invoices', e!.erpId);
    expect(shown?.entry).toMatchObject({ erpId: e!.erpId, rule: 'all', state: 'held', version: e!.version });
    expect(shown?.body).toMatchObject({ kind: 'invoice', invoice: { erpId: e!.erpId } });
    // `erp-sync explain` tells it too: no billing write, held by its rule.
    const [lineage] = await explainRecord(rt, CONNECTION, e!.erpId, ['invoices']);
    expect(lineage).toMatchObject({ billing: null, review: { state: 'held', rule: 'all', version: e!.version } });
  });

  it('when a held invoice is edited in the source, then the newer version replaces the held one, and approving writes the newer version', async () => {
    const id = editable(p)[0]!;
    const before = (await rt.review.get(CONNECTION, 'invoices', id))!;
    p.zoho.store.editInvoice(id);
    await pullInvoices(p);
    const after = (await rt.review.get(CONNECTION, 'invoices', id))!;
    expect(after.version > before.version).toBe(true);
    expect(after.state).toBe('held');
    expect(billingPosts(p)).toBe(0);
    const { mapped } = await p.expectedInvoices();
    expect(bodyOf(after)).toEqual(JSON.parse(JSON.stringify(mapped.get(id)!.body)));

    const r = await approve(rt, { connection: CONNECTION, erpIds: [id] }, 'alice');
    expect(r).toMatchObject({ approved: 1, notHeld: 0, firstSyncApproved: false });
    await p.waitForDrain();
    expect([...p.billingInvoices().keys()]).toEqual([id]);
    expect((await rt.ledger.get(CONNECTION, 'invoices', id))?.version).toBe(after.version);
    expect(await rt.review.get(CONNECTION, 'invoices', id)).toBeUndefined();
  });

  it('when every held record of the connection is approved, then billing gets each once, the queue empties, and the audit log says who', async () => {
    const held = (await rt.review.list(CONNECTION)).length;
    const r = await approve(rt, { connection: CONNECTION, all: true }, 'bob');
    expect(r.approved).toBe(held);
    await p.waitForDrain();
    expect((await p.compareWithSource()).problems).toEqual([]);
    expect(await rt.review.list(CONNECTION)).toEqual([]);
    expect(await heldGauge(rt)).toEqual({});
    const audit = await rt.audit.list({ limit: 10 });
    expect(audit.map((a) => [a.action, a.who, a.connection])).toEqual([
      ['review.approve', 'bob', CONNECTION],
      ['review.approve', 'alice', CONNECTION],
    ]);
    const approvedAlone = audit[1]!.record!.split('/')[1];
    const [some] = [...p.billingInvoices().keys()].filter((id) => id !== approvedAlone);
    const outcomes = (await rt.recordHistory.list(CONNECTION, 'invoices', some!)).map((h) => h.outcome);
    expect(outcomes.slice(-3)).toEqual(['held', 'approved', 'written']);
  });

  it('when a held invoice is rejected with a note, then it is never written, until the source changes it again: the new version is held for review', async () => {
    const id = editable(p)[1]!;
    p.zoho.store.editInvoice(id);
    await pullInvoices(p);
    const held = (await rt.review.get(CONNECTION, 'invoices', id))!;
    expect(held.state).toBe('held');
    const written = await rt.ledger.get(CONNECTION, 'invoices', id);
    expect(written!.version < held.version).toBe(true);

    const r = await reject(rt, { connection: CONNECTION, erpIds: [id] }, { by: 'carol', note: 'wrong customer' });
    expect(r).toMatchObject({ rejected: 1, notHeld: 0 });
    // The same version read again stays rejected and unwritten.
    const posts = billingPosts(p);
    await p.rt.checkpoints.rewindCheckpoint(
      CONNECTION,
      'invoices',
      new Date(Date.parse(held.version) - 1000).toISOString(),
    );
    await pullInvoices(p);
    expect(await rt.review.get(CONNECTION, 'invoices', id)).toMatchObject({
      state: 'rejected',
      version: held.version,
      by: 'carol',
      note: 'wrong customer',
    });
    expect(billingPosts(p)).toBe(posts);
    expect((await rt.ledger.get(CONNECTION, 'invoices', id))?.version).toBe(written!.version);
    const history = await rt.recordHistory.list(CONNECTION, 'invoices', id);
    expect(history.find((h) => h.outcome === 'rejected')).toMatchObject({ by: 'carol', reason: 'wrong customer' });
    // Read again, the rejected version is not told again: one `held` entry for it, then the rejection.
    expect(history.filter((h) => h.version === held.version).map((h) => h.outcome)).toEqual(['held', 'rejected']);

    p.zoho.store.editInvoice(id);
    await pullInvoices(p);
    const again = (await rt.review.get(CONNECTION, 'invoices', id))!;
    expect(again.state).toBe('held');
    // The source's new content (its version may share the rejected one's second).
    expect(again.hash).not.toBe(held.hash);
    expect(again.version >= held.version).toBe(true);
    expect(billingPosts(p)).toBe(posts);
    const audit = await rt.audit.list({ limit: 1 });
    expect(audit[0]).toMatchObject({ action: 'review.reject', who: 'carol', record: `invoices/${id}` });
  });
});

describe('given a connection with review rules: an invoice total at or above an amount', () => {
  let p: Harness;
  let rt: Runtime;
  afterAll(() => p?.close());

  it('when its history is synced, then exactly the invoices at or above the amount are held and every other record is in billing', async () => {
    p = await startHarness({ name: 'review-rules', invoices: INVOICES });
    const { mapped } = await p.expectedInvoices();
    const totals = [...mapped.values()].map((m) => dec(documentTotal(m.body)!.total)).sort((a, b) => a.comparedTo(b));
    const threshold = totals[Math.floor(totals.length / 2)]!;
    rt = await workersWithReview(p, { rules: { totalAtLeast: { INR: threshold.toFixed() } } });
    await backfill(p);

    const expected = [...mapped]
      .filter(([, m]) => dec(documentTotal(m.body)!.total).gte(threshold))
      .map(([id]) => id)
      .sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(mapped.size);
    const held = await rt.review.list(CONNECTION);
    expect(held.map((e) => `${e.entity}/${e.erpId}`).sort()).toEqual(expected.map((id) => `invoices/${id}`));
    expect(held.every((e) => e.rule === 'total-at-least')).toBe(true);
    expect((await p.compareWithSource({ except: new Set(expected) })).problems).toEqual([]);
    for (const id of expected) expect(p.billingInvoices().has(id)).toBe(false);

    // A deep reconcile knows them: held, with their rule, not missing (and a repair does not write them).
    // The window of the source's changes: from the oldest held version's day to today (UTC).
    const from = held.map((e) => e.version.slice(0, 10)).sort()[0]!;
    const to = new Date().toISOString().slice(0, 10);
    const r = await runReconcile(rt, { connectionId: CONNECTION, from, to, deep: true, repair: true });
    expect(r.counts.missing_in_billing).toBe(0);
    expect(r.counts.held).toBe(expected.length);
    const items = r.items.filter((i) => i.kind === 'held');
    expect(items.map((i) => i.erpId).sort()).toEqual(expected);
    expect(items[0]).toMatchObject({
      needsPerson: false,
      detail: expect.stringContaining('held by rule total-at-least'),
    });
    await p.waitForDrain();
    for (const id of expected) expect(p.billingInvoices().has(id)).toBe(false);
  });
});

describe('given a new connection with review: first-sync', () => {
  let p: Harness;
  let rt: Runtime;
  beforeAll(async () => {
    p = await startHarness({ name: 'review-first', invoices: INVOICES });
    rt = await workersWithReview(p, 'first-sync');
    await backfill(p);
  });
  afterAll(() => p?.close());

  it('when its backfill ends, then it is held as a whole, and the summary totals equal the sum of the held documents', async () => {
    expect(billingPosts(p)).toBe(0);
    const held = await rt.review.list(CONNECTION);
    expect(held.every((e) => e.rule === 'first-sync' && e.state === 'held')).toBe(true);
    const s = await summarizeReview(rt, CONNECTION, 3);
    const invoices = held.filter((e) => e.entity === 'invoices');
    expect(s.held).toBe(held.length);
    expect(s.byEntity).toEqual({ invoices: invoices.length, customers: held.length - invoices.length });
    // Summed here from the held bodies, per currency, exactly.
    const sums = new Map<string, ReturnType<typeof dec>>();
    for (const e of invoices) {
      const d = documentTotal(bodyOf(e)!)!;
      sums.set(d.currency, (sums.get(d.currency) ?? dec(0)).plus(dec(d.total)));
    }
    expect(s.totals.map((t) => [t.currency, dec(t.total).toFixed()])).toEqual(
      [...sums].map(([c, sum]) => [c, sum.toFixed()]),
    );
    expect(s.totals.reduce((n, t) => n + t.count, 0)).toBe(invoices.length);
    const largest = invoices.map((e) => dec(documentTotal(bodyOf(e)!)!.total)).sort((a, b) => b.comparedTo(a));
    expect(s.largest.map((i) => dec(i.total!).toFixed())).toEqual(largest.slice(0, 3).map((d) => d.toFixed()));
    const buyers = new Set(
      invoices.map(
        (e) => (bodyOf(e) as { invoice: { customerDetails?: { buyerId: string } } }).invoice.customerDetails?.buyerId,
      ),
    );
    buyers.delete(undefined);
    for (const b of buyers) expect(s.customersToCreate.map((c) => c.buyerId)).toContain(b);
  });

  it('when the first sync is approved at once, then billing gets it all, and later changes are written without review', async () => {
    const r = await approve(rt, { connection: CONNECTION, all: true }, 'dave');
    expect(r.firstSyncApproved).toBe(true);
    await p.waitForDrain();
    expect((await p.compareWithSource()).problems).toEqual([]);
    expect(await rt.review.list(CONNECTION)).toEqual([]);

    const id = editable(p)[0]!;
    p.zoho.store.editInvoice(id);
    await pullInvoices(p);
    expect(await rt.review.get(CONNECTION, 'invoices', id)).toBeUndefined();
    expect((await p.compareWithSource()).problems).toEqual([]);
  });
});
