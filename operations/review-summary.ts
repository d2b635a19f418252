import type { ConnectionHandle } from '../jobs/runtime.js';
import { documentTotal } from '../jobs/upsert/review-rule.js';
import type { BillingBody } from '../src/connector/billing-body.js';
import { dec, type Decimal, minorUnits } from '../src/mapping/money.js';
import type { CustomersEnsured } from '../src/pipeline/customers-ensured.js';
import type { ReviewEntry, ReviewQueue } from '../src/pipeline/review-queue.js';
import { bodyOf, type ReviewItem, reviewItem, selectReview } from './review-list.js';

/** What a connection's held records add up to: what a person approves at once (`first-sync`). */
export interface ReviewSummary {
  connection: string;
  /** Held records (rejected ones are not counted). */
  held: number;
  byEntity: Record<string, number>;
  /** Per entity and currency: how many documents and their exact total (the currency's minor units). */
  totals: Array<{ entity: string; currency: string; count: number; total: string }>;
  /** The largest documents, by their total in the billing company's currency (total × exchange rate). */
  largest: ReviewItem[];
  /** Buyers billing would get from this connection for the first time, by buyer id. */
  customersToCreate: Array<{ buyerId: string; name?: string }>;
}

/** `review summary`: the connection's held records summed up (an unknown connection throws). */
export async function summarizeReview(
  rt: {
    connection(id: string): ConnectionHandle;
    review: Pick<ReviewQueue, 'list'>;
    customersEnsured: Pick<CustomersEnsured, 'has'>;
  },
  connection: string,
  largest = 10,
): Promise<ReviewSummary> {
  const held = (await selectReview(rt, { connection })).filter((e) => e.state === 'held');
  const byEntity: Record<string, number> = {};
  const sums = new Map<string, { entity: string; currency: string; count: number; total: Decimal }>();
  const ranked: Array<{ entry: ReviewEntry; value: Decimal }> = [];
  for (const e of held) {
    byEntity[e.entity] = (byEntity[e.entity] ?? 0) + 1;
    const body = bodyOf(e);
    const doc = body && documentTotal(body);
    if (!body || !doc) continue;
    const k = `${e.entity}|${doc.currency}`;
    const sum = sums.get(k) ?? { entity: e.entity, currency: doc.currency, count: 0, total: dec(0) };
    sums.set(k, { ...sum, count: sum.count + 1, total: sum.total.plus(dec(doc.total)) });
    ranked.push({ entry: e, value: dec(doc.total).times(dec(exchangeRateOf(body))) });
  }
  return {
    connection,
    held: held.length,
    byEntity,
    totals: [...sums.values()]
      .sort((a, b) => a.entity.localeCompare(b.entity) || a.currency.localeCompare(b.currency))
      .map((s) => ({ ...s, total: s.total.toFixed(minorUnits(s.currency)) })),
    largest: ranked
      .sort((a, b) => b.value.comparedTo(a.value))
      .slice(0, largest)
      .map((r) => reviewItem(r.entry)),
    customersToCreate: await newBuyers(rt, connection, held),
  };
}

function exchangeRateOf(body: BillingBody): number {
  if (body.kind === 'invoice') return body.invoice.exchangeRate ?? 1;
  if (body.kind === 'credit-note') return body.creditNote.exchangeRate ?? 1;
  return 1;
}

/** Held customers, and the buyers of held documents, that this connection has not ensured in billing yet. */
async function newBuyers(
  rt: { customersEnsured: Pick<CustomersEnsured, 'has'> },
  connection: string,
  held: readonly ReviewEntry[],
): Promise<Array<{ buyerId: string; name?: string }>> {
  const buyers = new Map<string, string | undefined>();
  for (const e of held) {
    const body = bodyOf(e);
    const buyer =
      body?.kind === 'customer'
        ? body.customer
        : body?.kind === 'invoice'
          ? body.invoice.customerDetails
          : body?.creditNote.customerDetails;
    if (buyer && !buyers.has(buyer.buyerId)) buyers.set(buyer.buyerId, buyer.name);
  }
  const out: Array<{ buyerId: string; name?: string }> = [];
  for (const [buyerId, name] of buyers)
    if (!(await rt.customersEnsured.has(connection, buyerId))) out.push({ buyerId, ...(name ? { name } : {}) });
  return out.sort((a, b) => a.buyerId.localeCompare(b.buyerId));
}
