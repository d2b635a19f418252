import type { InvoiceListQuery, LifecycleStatus } from '../../src/billing/schemas/index.js';
import type { Paginated } from '../../src/billing/schemas/envelope.js';
import { buyerIdOf, type CompanyState, type StoredInvoice } from './billing-store.js';
import { invoiceStatusOf, paymentStatusOf } from './invoice-record.js';
import { pageInfo, pageWindow } from './paginate.js';
import { parseTagPairs, tagsMatchAll } from './tag-filter.js';

/**
 * GET /external/invoices semantics (interface "States" and endpoint 5; docs/interface-assumptions.md):
 * - Lifecycle: no filter → DRAFT, FINALIZED, VOIDED; a filter keeps its own statuses; DELETED is
 *   accepted but never yields (deleted invoices are always excluded).
 * - A14: UPDATED_AT / CREATED_AT compare the UTC date part of the timestamp with startDate..endDate,
 *   both inclusive (so 23:59:59 on the end day is in); INVOICE_DATE, DUE_DATE, PROMISE_TO_PAY_DATE
 *   compare the date column directly, inclusive; an invoice without that date is out of any range.
 * - A13: order by invoiceDate ascending (`sort=-invoiceDate`: descending), ties by creation order (the
 *   service id), so pages are stable; a missing invoiceDate sorts as the earliest date.
 * - Every other filter of InvoiceListQuery (A12) narrows the result (AND); lists match any element.
 * One pass over the pre-sorted invoices counts matches and keeps only the requested page.
 */
export const DEFAULT_LIFECYCLE_STATUSES: readonly LifecycleStatus[] = ['DRAFT', 'FINALIZED', 'VOIDED'];

type Predicate = (inv: StoredInvoice) => boolean;

function predicates(company: CompanyState, q: InvoiceListQuery, today: string): Predicate[] {
  const ps: Predicate[] = [];
  const lifecycles = new Set<LifecycleStatus>(q.lifecycleStatuses ?? DEFAULT_LIFECYCLE_STATUSES);
  lifecycles.delete('DELETED');
  ps.push((inv) => lifecycles.has(inv.lifecycleStatus));

  if (q.originSource?.length) {
    const set = new Set<string>(q.originSource);
    ps.push((inv) => set.has(inv.originSource));
  }
  if (q.dateType && (q.startDate || q.endDate)) {
    const from = q.startDate ?? '0000-00-00';
    const to = q.endDate ?? '9999-99-99';
    const column: (inv: StoredInvoice) => string | undefined = {
      UPDATED_AT: (inv: StoredInvoice) => inv.updatedDate,
      CREATED_AT: (inv: StoredInvoice) => inv.createdDate,
      INVOICE_DATE: (inv: StoredInvoice) => inv.input.invoiceDate?.date,
      DUE_DATE: (inv: StoredInvoice) => inv.input.invoiceDueDate?.date,
      PROMISE_TO_PAY_DATE: (inv: StoredInvoice) => inv.input.promiseToPayDate?.date,
    }[q.dateType];
    ps.push((inv) => {
      const d = column(inv);
      return d !== undefined && d >= from && d <= to;
    });
  }
  if (q.invoiceStatuses?.length) {
    const set = new Set<string>(q.invoiceStatuses);
    ps.push((inv) => set.has(invoiceStatusOf(inv, today)));
  }
  if (q.paymentStatuses?.length) {
    const set = new Set<string>(q.paymentStatuses);
    ps.push((inv) => set.has(paymentStatusOf(inv)));
  }
  if (q.acceptanceStatuses?.length) {
    const set = new Set<string>(q.acceptanceStatuses);
    ps.push((inv) => inv.input.invoiceAcceptanceStatus !== undefined && set.has(inv.input.invoiceAcceptanceStatus));
  }
  if (q.tags?.length) {
    const wanted = parseTagPairs(q.tags);
    ps.push((inv) => tagsMatchAll(inv.input.tags, wanted));
  }
  if (q.customerIds?.length) {
    const set = new Set(q.customerIds);
    ps.push((inv) => {
      if (inv.input.customerId !== undefined && set.has(inv.input.customerId)) return true;
      const buyer = buyerIdOf(inv.input);
      const customer = buyer === undefined ? undefined : company.customerByBuyer.get(buyer);
      return customer !== undefined && set.has(customer.id);
    });
  }
  if (q.ownerIds?.length) {
    const set = new Set(q.ownerIds);
    ps.push((inv) => {
      const buyer = buyerIdOf(inv.input);
      const owners =
        inv.input.customerDetails?.ownersData ??
        (buyer === undefined ? undefined : company.customerByBuyer.get(buyer)?.details.ownersData);
      return owners?.some((o) => set.has(o.id)) ?? false;
    });
  }
  if (q.buyerIds?.length) {
    const set = new Set(q.buyerIds);
    ps.push((inv) => {
      const buyer = buyerIdOf(inv.input);
      return buyer !== undefined && set.has(buyer);
    });
  }
  if (q.amountType) {
    const amountOf: (inv: StoredInvoice) => number = {
      TOTAL: (inv: StoredInvoice) => inv.input.invoiceTotal,
      OUTSTANDING: (inv: StoredInvoice) => inv.outstanding,
      PAID: (inv: StoredInvoice) => inv.input.invoicePaidAmount,
      ADJUSTED: (inv: StoredInvoice) => inv.input.invoiceAdjustedAmount,
    }[q.amountType];
    const { minAmount: min, maxAmount: max, nonZeroAmountOnly: nonZero } = q;
    ps.push((inv) => {
      const a = amountOf(inv);
      return (min === undefined || a >= min) && (max === undefined || a <= max) && (!nonZero || a !== 0);
    });
  }
  if (q.invoiceNumber !== undefined) {
    const n = q.invoiceNumber;
    ps.push((inv) => inv.input.invoiceNumber === n);
  }
  if (q.invoiceIds?.length) {
    const set = new Set(q.invoiceIds);
    ps.push((inv) => set.has(inv.input.invoiceId));
  }
  if (q.hasAttachment !== undefined || q.attachmentPurpose !== undefined) {
    const purpose = q.attachmentPurpose;
    const want = q.hasAttachment ?? true;
    ps.push((inv) => {
      const has =
        purpose === undefined ? inv.attachments.length > 0 : inv.attachments.some((a) => a.purpose === purpose);
      return has === want;
    });
  }
  if (q.currencies?.length) {
    const set = new Set(q.currencies);
    ps.push((inv) => set.has(inv.input.invoiceCurrency));
  }
  return ps;
}

/** One page of the listing, as stored invoices (the route turns them into records). */
export function listInvoices(company: CompanyState, q: InvoiceListQuery, today: string): Paginated<StoredInvoice> {
  const ps = predicates(company, q, today);
  const ordered = company.sortedInvoices(q.sort === '-invoiceDate');
  const { start, end } = pageWindow(q.pageNumber, q.pageSize);
  const docs: StoredInvoice[] = [];
  let total = 0;
  const n = ordered.length;
  const m = ps.length;
  outer: for (let i = 0; i < n; i++) {
    const inv = ordered[i]!;
    for (let j = 0; j < m; j++) if (!ps[j]!(inv)) continue outer;
    if (total >= start && total < end) docs.push(inv);
    total++;
  }
  return pageInfo(docs, total, q.pageNumber, q.pageSize);
}
