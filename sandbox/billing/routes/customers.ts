import { CustomerCreateBody, CustomerSearchQuery } from '../../../src/billing/schemas/index.js';
import type { Router } from '../../kit/router.js';
import type { CompanyState, StoredCustomer, StoredInvoice } from '../billing-store.js';
import { formatServiceTimestamp, utcDateOf } from '../service-timestamp.js';
import { countsForCustomer, creditNoteCounts, toCustomerRecord } from '../customer-record.js';
import { conflict, guarded } from '../errors.js';
import { invoiceStatusOf, paymentStatusOf } from '../invoice-record.js';
import { paginate } from '../paginate.js';
import { emptyOk, envelopeOk } from '../responses.js';
import { parseTagPairs, tagsMatchAll, tagsMatchAny } from '../tag-filter.js';
import { parseBody, parseQuery } from '../validate.js';
import type { RouteDeps } from './route-deps.js';

/**
 * Endpoint 3 (POST /external/customer) and endpoint 4 (GET /external/customer/search).
 *
 * A17: the create body is CustomerDetails, unwrapped; a second create with the same buyerId → 409.
 * There is no update endpoint, so updatedAt = createdAt. Invoice upserts do not create customers.
 *
 * Search filters (A15), all combined with AND, results in creation order:
 * - searchType + searchText: GSTIN / PAN = a tax identifier of that type equal to the text
 *   (case-insensitive); BUYER_ID = exact buyerId; CUSTOMER_NAME = case-insensitive substring of name.
 * - invoiceStatuses / paymentStatuses / invoiceDateType + invoiceStartDate..invoiceEndDate: the
 *   customer has at least one invoice (not VOIDED or DELETED) that matches.
 * - customerStatuses, currencies: the customer's own fields.
 * - includeTags (key:value, same key OR, keys AND), excludeTags (no pair matches), excludeTagKeys.
 * - ownerId / ownerRole / excludedOwnerRole over ownersData; contactRole / excludedContactRole over
 *   contactsData.
 * - A16: createdAtStart..createdAtEnd compare the UTC date part of createdAt, whole days inclusive.
 *   updatedAtStart: updatedAt >= 'START 00:00:00'; updatedAtEnd: the raw comparison the interface
 *   describes, updatedAt <= 'END 00:00:00' — an update later on the end day falls outside, so callers
 *   pass the following day.
 */
type Predicate = (c: StoredCustomer) => boolean;

function buildPredicates(company: CompanyState, q: CustomerSearchQuery, today: string): Predicate[] {
  const ps: Predicate[] = [];
  const invoicesOf = (c: StoredCustomer): StoredInvoice[] =>
    [...company.invoicesOfBuyer(c.details.buyerId)].filter(countsForCustomer);

  if (q.searchType && q.searchText !== undefined) {
    const text = q.searchText;
    const lower = text.toLowerCase();
    switch (q.searchType) {
      case 'GSTIN':
      case 'PAN': {
        const type = q.searchType;
        ps.push(
          (c) => c.details.taxIdentifiers?.some((t) => t.type === type && t.value.toLowerCase() === lower) ?? false,
        );
        break;
      }
      case 'BUYER_ID':
        ps.push((c) => c.details.buyerId === text);
        break;
      case 'CUSTOMER_NAME':
        ps.push((c) => (c.details.name ?? '').toLowerCase().includes(lower));
        break;
    }
  }
  if (q.invoiceStatuses?.length) {
    const set = new Set<string>(q.invoiceStatuses);
    ps.push((c) => invoicesOf(c).some((i) => set.has(invoiceStatusOf(i, today))));
  }
  if (q.paymentStatuses?.length) {
    const set = new Set<string>(q.paymentStatuses);
    ps.push((c) => invoicesOf(c).some((i) => set.has(paymentStatusOf(i))));
  }
  if (q.invoiceDateType && (q.invoiceStartDate || q.invoiceEndDate)) {
    const from = q.invoiceStartDate ?? '0000-00-00';
    const to = q.invoiceEndDate ?? '9999-99-99';
    const type = q.invoiceDateType;
    const dateOf = (i: StoredInvoice) =>
      type === 'INVOICE_DATE'
        ? i.input.invoiceDate?.date
        : type === 'DUE_DATE'
          ? i.input.invoiceDueDate?.date
          : i.input.promiseToPayDate?.date;
    ps.push((c) =>
      invoicesOf(c).some((i) => {
        const d = dateOf(i);
        return d !== undefined && d >= from && d <= to;
      }),
    );
  }
  if (q.customerStatuses?.length) {
    const set = new Set<string>(q.customerStatuses);
    ps.push((c) => c.details.customerStatus !== undefined && set.has(c.details.customerStatus));
  }
  if (q.currencies?.length) {
    const set = new Set(q.currencies);
    ps.push((c) => set.has(c.details.currency));
  }
  if (q.includeTags?.length) {
    const wanted = parseTagPairs(q.includeTags);
    ps.push((c) => tagsMatchAll(c.details.tags, wanted));
  }
  if (q.excludeTags?.length) {
    const unwanted = parseTagPairs(q.excludeTags);
    ps.push((c) => !tagsMatchAny(c.details.tags, unwanted));
  }
  if (q.excludeTagKeys?.length) {
    const keys = q.excludeTagKeys;
    ps.push((c) => !keys.some((k) => c.details.tags?.[k] !== undefined));
  }
  const { ownerId, ownerRole, excludedOwnerRole, contactRole, excludedContactRole } = q;
  if (ownerId !== undefined) ps.push((c) => c.details.ownersData?.some((o) => o.id === ownerId) ?? false);
  if (ownerRole !== undefined) ps.push((c) => c.details.ownersData?.some((o) => o.role === ownerRole) ?? false);
  if (excludedOwnerRole !== undefined)
    ps.push((c) => !(c.details.ownersData?.some((o) => o.role === excludedOwnerRole) ?? false));
  if (contactRole !== undefined) ps.push((c) => c.details.contactsData?.some((o) => o.role === contactRole) ?? false);
  if (excludedContactRole !== undefined)
    ps.push((c) => !(c.details.contactsData?.some((o) => o.role === excludedContactRole) ?? false));

  if (q.createdAtStart !== undefined || q.createdAtEnd !== undefined) {
    const from = q.createdAtStart ?? '0000-00-00';
    const to = q.createdAtEnd ?? '9999-99-99';
    ps.push((c) => {
      const d = utcDateOf(c.createdAtMs);
      return d >= from && d <= to;
    });
  }
  if (q.updatedAtStart !== undefined) {
    const bound = `${q.updatedAtStart} 00:00:00`;
    ps.push((c) => formatServiceTimestamp(c.updatedAtMs) >= bound);
  }
  if (q.updatedAtEnd !== undefined) {
    const bound = `${q.updatedAtEnd} 00:00:00`;
    ps.push((c) => formatServiceTimestamp(c.updatedAtMs) <= bound);
  }
  return ps;
}

export function registerCustomerRoutes(router: Router, { store, clock, keys }: RouteDeps): void {
  router.on(
    'POST',
    '/external/customer',
    guarded((ctx) => {
      const companyId = keys.authenticate(ctx.headers, 'service');
      const details = parseBody(CustomerCreateBody, ctx.body);
      const company = store.company(companyId);
      if (company.customerByBuyer.has(details.buyerId)) {
        throw conflict(`buyerId: a customer with buyerId ${details.buyerId} already exists`);
      }
      const now = clock.now();
      const customer: StoredCustomer = { id: store.nextId('cus'), details, createdAtMs: now, updatedAtMs: now };
      company.customers.push(customer);
      company.customerByBuyer.set(details.buyerId, customer);
      return emptyOk();
    }),
  );

  router.on(
    'GET',
    '/external/customer/search',
    guarded((ctx) => {
      const companyId = keys.authenticate(ctx.headers, 'service');
      const q = parseQuery(CustomerSearchQuery, ctx.query);
      const company = store.company(companyId);
      const today = clock.today();
      const ps = buildPredicates(company, q, today);
      const matches = company.customers.filter((c) => ps.every((p) => p(c)));
      const counts = creditNoteCounts(company);
      return envelopeOk(
        paginate(matches, q.pageNumber, q.pageSize, (c) => toCustomerRecord(company, c, today, counts)),
      );
    }),
  );
}
