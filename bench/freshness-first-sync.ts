import { percentile } from '../src/observability/percentile.js';
import { deleteKeysWithPrefix, stateConnection } from '../src/redis.js';
import {
  admin,
  change,
  served,
  startWebhookRig,
  waitFor,
  waitSendersActive,
  type Erp,
  type WebhookRig,
} from './webhook-rig.js';

/**
 * Freshness during a first sync (bench/freshness.bench.ts's row "during a first sync"): two Zoho Books
 * organisations (sandboxes, seeds 1 and 2) at Zoho's real 100 calls a minute, each with `invoices`
 * invoices, synced at once by one worker (every role, this process, real Redis) at the connector's
 * default budget (90 a minute), webhooks on, the pull hourly. On the first (`zoho-edits`), once its
 * invoices' first sync holds the quota (a page of them in billing, its customers and credit notes done),
 * `edits` invoices already in billing are edited at the vendor, one every `gapMs`; each edit's latency is
 * billing's `updatedAtMs` once it holds the edit minus the sandbox's `modifiedAt`. The second
 * (`zoho-quiet`) gets no edit: its first sync's time is the same bench without edits, on the same machine
 * at the same moment. A first sync's time: worker start → its invoices stream's first success.
 */
export interface FirstSyncFreshness {
  invoices: number;
  latenciesS: number[];
  firstSyncS: { edits: number; quiet: number };
  /** Vendor calls answered 429, both sandboxes. */
  refused: number;
}

const IDS = ['zoho-edits', 'zoho-quiet'] as const;
const COMPANIES = ['co-first-sync-edits', 'co-first-sync-quiet'] as const;

/** Billing's invoice of one ERP id in a company (both connections share the sandbox's origin). */
function billedIn(rig: WebhookRig, company: string, erpId: string) {
  return rig.billing.store.company(company).invoices.find((i) => i.input.erpId === erpId);
}

async function firstSyncDone(rig: WebhookRig, connection: string): Promise<boolean> {
  return (await rig.service!.rt.syncStatus.read(connection)).lastSuccess.invoices !== undefined;
}

/** Edits `n` billed invoices of the edited connection, one every `gapMs`: each one's latency in seconds. */
async function editDuringSync(rig: WebhookRig, erp: Erp, n: number, gapMs: number): Promise<number[]> {
  // Finalised invoices already in billing (a void one cannot be edited), spread over what is there.
  const billed = rig.billing.store
    .company(COMPANIES[0])
    .invoices.filter((i) => i.lifecycleStatus === 'FINALIZED')
    .map((i) => i.input.erpId);
  const step = Math.max(1, Math.floor(billed.length / n));
  const spread = Array.from({ length: n }, (_, i) => billed[(i * step) % billed.length]!);
  const order = [...new Set([...spread, ...billed])];
  const pending: Array<Promise<number>> = [];
  let next = 0;
  for (let made = 0; made < n && next < order.length; made++) {
    // An invoice voided at the vendor since billing got it is refused: the next one is edited instead.
    let edit: { id: string; modifiedAt: string } | undefined;
    while (!edit && next < order.length) {
      const candidate = order[next++]!;
      edit = await change(erp, { entity: 'invoices', op: 'edit', ids: [candidate] }).then(
        ([m]) => m,
        (e: Error) => void console.warn(`edit of ${candidate} refused by the sandbox: ${e.message}`),
      );
    }
    if (!edit) break;
    const id = edit.id;
    const at = Date.parse(edit.modifiedAt);
    pending.push(
      waitFor(
        `zoho-edits ${id} edited in billing`,
        () => (billedIn(rig, COMPANIES[0], id)?.updatedAtMs ?? 0) >= at,
        900_000,
      ).then(() => (billedIn(rig, COMPANIES[0], id)!.updatedAtMs - at) / 1000),
    );
    await new Promise((r) => setTimeout(r, gapMs));
  }
  return Promise.all(pending);
}

export async function freshnessDuringFirstSync(opts: {
  redisUrl: string;
  prefix: string;
  invoices: number;
  edits: number;
  gapMs: number;
}): Promise<FirstSyncFreshness> {
  const rig = await startWebhookRig({
    redisUrl: opts.redisUrl,
    prefix: opts.prefix,
    records: opts.invoices,
    systems: ['zoho-books', 'zoho-books'],
    billingKeys: COMPANIES.map((companyId, i) => ({ key: `bench-first-sync-${i + 1}`, companyId })),
    zohoPerMinute: 100,
  });
  try {
    for (const [i, erp] of rig.erps.entries()) await admin(erp, '/__admin/webhooks', { connection: IDS[i] });
    const t0 = performance.now();
    await rig.startWorker((raw) => {
      for (const [i, c] of (raw.connections as Array<Record<string, any>>).entries()) {
        c.id = IDS[i];
        c.billing = { apiKey: `bench-first-sync-${i + 1}`, company: COMPANIES[i], baseCurrency: 'INR' };
        c.schedule = { everySeconds: 3600 };
        // The connector's default budget: 90 a minute, under Zoho's 100.
        delete c.rateBudget;
      }
    });
    await waitSendersActive(rig);
    const rt = rig.service!.rt;
    await waitFor(
      "zoho-edits' invoices first sync under way (a page in billing, customers and credit notes done)",
      async () => {
        const { lastSuccess } = await rt.syncStatus.read(IDS[0]);
        return (
          lastSuccess.customers !== undefined &&
          lastSuccess['credit-notes'] !== undefined &&
          rig.billing.store.company(COMPANIES[0]).invoices.length >= Math.min(100, opts.invoices / 2)
        );
      },
      900_000,
      500,
    );
    const editsDone = await firstSyncDone(rig, IDS[0]);
    if (editsDone) console.warn('the first sync ended before the edits began: use more invoices');
    const editsAt = (performance.now() - t0) / 1000;
    const latenciesS = await editDuringSync(rig, rig.erps[0]!, opts.edits, opts.gapMs);
    const p = (x: number) => percentile(latenciesS, x)!.toFixed(2);
    console.log(
      `edits from ${editsAt.toFixed(0)} s into the first sync: ${latenciesS.length} in billing, p50 ${p(50)} s, p99 ${p(99)} s, max ${Math.max(...latenciesS).toFixed(2)} s`,
    );
    const doneAt = new Map<string, number>();
    await waitFor(
      'both first syncs done',
      async () => {
        for (const id of IDS)
          if (!doneAt.has(id) && (await firstSyncDone(rig, id))) {
            doneAt.set(id, performance.now());
            console.log(`${id}: first sync done in ${((performance.now() - t0) / 60_000).toFixed(1)} min`);
          }
        return doneAt.size === IDS.length;
      },
      6 * 3_600_000,
      1_000,
    );
    let refused = 0;
    for (const erp of rig.erps) refused += (await served(erp)).filter((e) => e.status === 429).length;
    const secs = (id: string) => (doneAt.get(id)! - t0) / 1000;
    return { invoices: opts.invoices, latenciesS, firstSyncS: { edits: secs(IDS[0]), quiet: secs(IDS[1]) }, refused };
  } finally {
    await rig.close();
    const r = stateConnection(opts.redisUrl);
    await deleteKeysWithPrefix(r, opts.prefix);
    r.disconnect();
  }
}

/** The row's figures, as docs/benchmarks.md prints them. */
export function firstSyncRow(r: FirstSyncFreshness, edits: number, gapMs: number): string {
  const q = (p: number) => percentile(r.latenciesS, p)!.toFixed(2);
  const lost = ((r.firstSyncS.edits / r.firstSyncS.quiet - 1) * 100).toFixed(1);
  return [
    `during a first sync (Zoho Books at 100 calls a minute, ${r.invoices} invoices, ${edits} edits one every ${gapMs / 1000} s):`,
    `  change → billing p50 ${q(50)} s, p99 ${q(99)} s, max ${Math.max(...r.latenciesS).toFixed(2)} s`,
    `  first sync ${(r.firstSyncS.edits / 60).toFixed(1)} min with the edits, ${(r.firstSyncS.quiet / 60).toFixed(1)} min without (${lost} %); ${r.refused} × 429`,
  ].join('\n');
}
