import { documentTotal } from '../jobs/upsert/review-rule.js';
import type { ConnectionHandle } from '../jobs/runtime.js';
import { BillingBody } from '../src/connector/billing-body.js';
import type { ReviewEntry, ReviewQueue } from '../src/pipeline/review-queue.js';

/** Which records of a connection's review queue an operation is about: all, an entity's, or the ERP ids named. */
export interface ReviewSelection {
  connection: string;
  entity?: string;
  /** One record or several (with `entity`, or across entities). */
  erpIds?: readonly string[];
}

/** One entry of the review queue as a listing shows it: what would be sent, in a line. */
export interface ReviewItem {
  connection: string;
  entity: string;
  erpId: string;
  version: string;
  rule: string;
  state: ReviewEntry['state'];
  since: number;
  /** The document's number, total and currency; a customer's name. */
  number?: string;
  total?: string;
  currency?: string;
  customer?: string;
  /** A rejection: who, when, and their note. */
  by?: string;
  at?: number;
  note?: string;
}

/** The selected entries of a connection's review queue (an unknown connection throws), oldest first. */
export async function selectReview(
  rt: { connection(id: string): ConnectionHandle; review: Pick<ReviewQueue, 'list'> },
  s: ReviewSelection,
): Promise<ReviewEntry[]> {
  rt.connection(s.connection);
  const ids = s.erpIds?.length ? new Set(s.erpIds) : undefined;
  return (await rt.review.list(s.connection)).filter(
    (e) => (!s.entity || e.entity === s.entity) && (!ids || ids.has(e.erpId)),
  );
}

/** `review list`: the held and rejected records of the connections given (default: every configured one). */
export async function listReview(
  rt: {
    config: { connections: ReadonlyArray<{ id: string }> };
    connection(id: string): ConnectionHandle;
    review: Pick<ReviewQueue, 'list'>;
  },
  connection?: string,
): Promise<ReviewItem[]> {
  const ids = connection ? [connection] : rt.config.connections.map((c) => c.id);
  const out: ReviewItem[] = [];
  for (const id of ids) out.push(...(await selectReview(rt, { connection: id })).map(reviewItem));
  return out;
}

/** An entry in a line: its document's number, total and buyer read from the body it holds. */
export function reviewItem(e: ReviewEntry): ReviewItem {
  const { payload: _payload, hash: _hash, ...item } = e;
  const body = bodyOf(e);
  if (!body) return item;
  const doc = documentTotal(body);
  if (body.kind === 'customer') return { ...item, customer: body.customer.name ?? body.customer.buyerId };
  const d = body.kind === 'invoice' ? body.invoice : body.creditNote;
  const number = body.kind === 'invoice' ? body.invoice.invoiceNumber : body.creditNote.creditNoteNumber;
  return { ...item, number, ...doc, customer: d.customerDetails?.name ?? d.customerName ?? d.customerId };
}

/** The billing body an entry holds, as billing's schema reads it; undefined if it does not parse. */
export function bodyOf(e: Pick<ReviewEntry, 'payload'>): BillingBody | undefined {
  const parsed = BillingBody.safeParse((e.payload as { body?: unknown } | undefined)?.body);
  return parsed.success ? parsed.data : undefined;
}
