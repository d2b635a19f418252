import type { CompanyState, StoredCustomer, StoredInvoice } from './billing-store.js';
import { formatServiceTimestamp } from './service-timestamp.js';
import { invoiceStatusOf } from './invoice-record.js';
import { sum } from '../kit/minor-units.js';

/**
 * The customer record customer search returns. Totals and counts come from the customer's invoices
 * (matched by buyerId) that count towards receivables: every lifecycle but VOIDED and DELETED.
 * overdueAmount / overdueCount: the outstanding of invoices whose invoiceStatus is OVERDUE (A10).
 * creditNoteCount: credit notes whose customer (customerDetails.buyerId, else customerId) is the buyer.
 * Extras beyond the interface's table: stateCode, countryCode, country, primaryPhone, primaryEmail.
 */
export function countsForCustomer(inv: StoredInvoice): boolean {
  return inv.lifecycleStatus !== 'VOIDED' && inv.lifecycleStatus !== 'DELETED';
}

/** buyerId → number of credit notes, computed once per request. */
export function creditNoteCounts(company: CompanyState): Map<string, number> {
  const counts = new Map<string, number>();
  for (const note of company.creditNotes.values()) {
    const buyer = note.input.customerDetails?.buyerId ?? note.input.customerId;
    if (buyer !== undefined) counts.set(buyer, (counts.get(buyer) ?? 0) + 1);
  }
  return counts;
}

export function toCustomerRecord(
  company: CompanyState,
  c: StoredCustomer,
  today: string,
  creditNotes: Map<string, number>,
): Record<string, unknown> {
  const d = c.details;
  const invoices = [...company.invoicesOfBuyer(d.buyerId)].filter(countsForCustomer);
  const overdue = invoices.filter((inv) => invoiceStatusOf(inv, today) === 'OVERDUE');
  return {
    id: c.id,
    buyerId: d.buyerId,
    companyId: company.companyId,
    name: d.name ?? null,
    alias: d.alias ?? null,
    registeredAddress: d.registeredAddress ?? null,
    addresses: d.addresses ?? [],
    contacts: d.contactsData ?? [],
    internalStakeholders: (d.ownersData ?? []).map((o) => ({ ...o, role: o.role ?? null })),
    taxIdentifiers: d.taxIdentifiers ?? [],
    customerContactPerson: d.customerContactPerson ?? null,
    currency: d.currency,
    currencyId: d.currencyId ?? null,
    tags: d.tags ?? {},
    metaData: d.metaData ?? {},
    customerStatus: d.customerStatus ?? null,
    upcomingCustomerStatus: d.upcomingCustomerStatus ?? null,
    upcomingCustomerStatusChangeDate: d.upcomingCustomerStatusChangeDate ?? null,
    upcomingCustomerStatusChangeReason: d.upcomingCustomerStatusChangeReason ?? null,
    upcomingCustomerStatusChangeByUserid: d.upcomingCustomerStatusChangeByUserid ?? null,
    isManuallyCreated: d.isManuallyCreated,
    erpId: d.erpId ?? null,
    createdAt: formatServiceTimestamp(c.createdAtMs),
    updatedAt: formatServiceTimestamp(c.updatedAtMs),
    totalInvoiceAmount: sum(invoices.map((i) => i.input.invoiceTotal)),
    totalPaidAmount: sum(invoices.map((i) => i.input.invoicePaidAmount)),
    totalOutstandingAmount: sum(invoices.map((i) => i.outstanding)),
    totalAdjustedAmount: sum(invoices.map((i) => i.input.invoiceAdjustedAmount)),
    overdueAmount: sum(overdue.map((i) => i.outstanding)),
    invoiceCount: invoices.length,
    creditNoteCount: creditNotes.get(d.buyerId) ?? 0,
    overdueCount: overdue.length,
    // extras
    stateCode: d.stateCode ?? null,
    countryCode: d.countryCode,
    country: d.country ?? null,
    primaryPhone: d.primaryPhone ?? null,
    primaryEmail: d.primaryEmail ?? null,
  };
}
